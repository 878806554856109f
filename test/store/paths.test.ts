import { describe, expect, test } from "bun:test";
import { defaultStorePath } from "../../src/store/paths.ts";

describe("defaultStorePath", () => {
  test("ORCHESTRATE_DB wins over everything", () => {
    expect(defaultStorePath({ ORCHESTRATE_DB: "/x/y.db", XDG_STATE_HOME: "/s", HOME: "/h" })).toBe("/x/y.db");
  });
  test("XDG_STATE_HOME next", () => {
    expect(defaultStorePath({ XDG_STATE_HOME: "/s", HOME: "/h" })).toBe("/s/orchestrate/orchestrate.db");
  });
  test("then ~/.local/state", () => {
    expect(defaultStorePath({ HOME: "/h" })).toBe("/h/.local/state/orchestrate/orchestrate.db");
  });
  test("empty variables count as unset", () => {
    expect(defaultStorePath({ ORCHESTRATE_DB: "", XDG_STATE_HOME: "", HOME: "/h" })).toBe("/h/.local/state/orchestrate/orchestrate.db");
  });
});
