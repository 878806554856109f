import { describe, expect, test } from "bun:test";
import { CONTROL_VARIABLES, childEnv } from "../../src/process/env.ts";

describe("childEnv", () => {
  test("inherits the base, drops every control variable, counts depth up", () => {
    const base: Record<string, string | undefined> = { PATH: "/usr/bin", HOME: "/home/u", OPENAI_API_KEY: "sk-user", UNSET: undefined };
    for (const name of CONTROL_VARIABLES) base[name] = "leak";
    const env = childEnv(base, {});
    expect(env).toEqual({ PATH: "/usr/bin", HOME: "/home/u", OPENAI_API_KEY: "sk-user", ORCHESTRATE_DEPTH: "1" });
    expect(CONTROL_VARIABLES).toContain("ORCHESTRATE_ALLOW_INIT");
    expect(CONTROL_VARIABLES).toContain("ORCHESTRATE_HISTORY_TOOLS");
    expect(CONTROL_VARIABLES).toContain("ORCHESTRATOR_HOST_RUNTIME");
  });

  test("depth is the parent's plus one; garbage fails closed (deeper than any limit), as src/safety/depth.ts defines it", () => {
    expect(childEnv({ ORCHESTRATE_DEPTH: "2" }, {}).ORCHESTRATE_DEPTH).toBe("3");
    expect(Number(childEnv({ ORCHESTRATE_DEPTH: "nope" }, {}).ORCHESTRATE_DEPTH)).toBeGreaterThanOrEqual(9999);
  });

  test("additions set and remove variables, but cannot lower the depth", () => {
    const env = childEnv({ A: "1", B: "2", ORCHESTRATE_DEPTH: "1" }, { B: undefined, C: "3", ORCHESTRATE_DEPTH: "0" });
    expect(env).toEqual({ A: "1", C: "3", ORCHESTRATE_DEPTH: "2" });
  });

  test("does not invent anything: no secret appears that the inputs lacked", () => {
    expect(Object.keys(childEnv({}, {}))).toEqual(["ORCHESTRATE_DEPTH"]);
  });
});
