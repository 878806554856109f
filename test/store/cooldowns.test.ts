import { describe, expect, test } from "bun:test";
import { mustOpen, tmpStorePath } from "./tmp.ts";

describe("cooldowns", () => {
  test("arm keeps the later expiry; active drops expired; clear removes", () => {
    const store = mustOpen(tmpStorePath());
    store.cooldowns.arm("a", "capacity", 5000, 1000);
    store.cooldowns.arm("a", "transport", 3000, 1100); // shorter: ignored
    expect(store.cooldowns.active(2000).get("a")).toEqual({ until: 5000, cls: "capacity" });
    store.cooldowns.arm("a", "auth", 9000, 1200); // longer: replaces, class too
    expect(store.cooldowns.active(2000).get("a")).toEqual({ until: 9000, cls: "auth" });
    store.cooldowns.arm("b", "not_installed", 1500, 1000);
    expect([...store.cooldowns.active(2000).keys()]).toEqual(["a"]);
    expect([...store.cooldowns.active(1400).keys()].sort()).toEqual(["a", "b"]);
    store.cooldowns.clear("a");
    expect(store.cooldowns.active(2000).size).toBe(0);
    store.close();
  });

  test("a cooldown armed by one Store is seen by another on the same file", () => {
    const path = tmpStorePath();
    const one = mustOpen(path);
    const two = mustOpen(path);
    const now = Date.now();
    expect(two.cooldowns.active(now).has("claude-opus")).toBe(false);
    one.cooldowns.arm("claude-opus", "capacity", now + 60_000, now);
    expect(two.cooldowns.active(now).get("claude-opus")).toEqual({ until: now + 60_000, cls: "capacity" });
    two.cooldowns.clear("claude-opus");
    expect(one.cooldowns.active(now).has("claude-opus")).toBe(false);
    one.close();
    two.close();
  });
});
