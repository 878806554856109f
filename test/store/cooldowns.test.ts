import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mustOpen, tmpStorePath } from "./tmp.ts";
import { rewindSchema } from "./rewind.ts";

describe("cooldowns", () => {
  test("arm keeps the later expiry; active drops expired; clear removes", () => {
    const store = mustOpen(tmpStorePath());
    store.cooldowns.arm("a", "capacity", 5000, 1000);
    store.cooldowns.arm("a", "transport", 3000, 1100); // shorter: ignored
    expect(store.cooldowns.active(2000).get("a")).toEqual({ until: 5000, cls: "capacity", heals: false });
    store.cooldowns.arm("a", "auth", 9000, 1200, true); // longer: replaces, class and heals too
    expect(store.cooldowns.active(2000).get("a")).toEqual({ until: 9000, cls: "auth", heals: true });
    store.cooldowns.arm("b", "not_installed", 1500, 1000);
    expect([...store.cooldowns.active(2000).keys()]).toEqual(["a"]);
    expect([...store.cooldowns.active(1400).keys()].sort()).toEqual(["a", "b"]);
    store.cooldowns.clear("a");
    expect(store.cooldowns.active(2000).size).toBe(0);
    store.cooldowns.arm("c", "capacity", 9000, 1000);
    store.cooldowns.arm("d", "auth", 1500, 1000);
    expect(store.cooldowns.clearAll(2000)).toBe(1);
    expect([...store.cooldowns.active(1000).keys()].sort()).toEqual(["b", "d"]); // expired ones are left to expire
    store.close();
  });

  test("a cooldown armed by one Store is seen by another on the same file", () => {
    const path = tmpStorePath();
    const one = mustOpen(path);
    const two = mustOpen(path);
    const now = Date.now();
    expect(two.cooldowns.active(now).has("claude-opus")).toBe(false);
    one.cooldowns.arm("claude-opus", "capacity", now + 60_000, now);
    expect(two.cooldowns.active(now).get("claude-opus")).toEqual({ until: now + 60_000, cls: "capacity", heals: false });
    two.cooldowns.clear("claude-opus");
    expect(one.cooldowns.active(now).has("claude-opus")).toBe(false);
    one.close();
    two.close();
  });

  test("migration 008: a store at schema 7 keeps its cooldowns, none of them healable", () => {
    const path = tmpStorePath();
    mustOpen(path).close();
    const raw = new Database(path);
    rewindSchema(raw, 7);
    raw.run("INSERT INTO cooldowns (agent_id, cls, until_ms, armed_at) VALUES ('a', 'auth', 9000, 1000)");
    raw.close();
    const store = mustOpen(path);
    expect(store.cooldowns.active(2000).get("a")).toEqual({ until: 9000, cls: "auth", heals: false });
    store.close();
  });
});
