import { describe, expect, test } from "bun:test";
import { describeComplaints, isAbstention, parseStructured, prepareSchema } from "../../src/services/ask/structured.ts";

describe("structured mode's schema and replies", () => {
  test("the size cap applies to the text before it is parsed, and to the object arm's JSON", async () => {
    const big = `{"type":"object","description":"${"x".repeat(200)}"}`;
    expect((await prepareSchema(big, 100)).ok).toBe(false);
    expect((await prepareSchema(JSON.parse(big), 100)).ok).toBe(false);
    expect((await prepareSchema(big, 1000)).ok).toBe(true);
  });

  test("a schema naming no dialect is 2020-12; one that only compiles as draft-07 (tuple items) is read as that", async () => {
    const tuple = await prepareSchema({ type: "array", items: [{ type: "string" }, { type: "number" }], additionalItems: false }, 10_000);
    if (!tuple.ok) throw new Error(tuple.error.message);
    expect(tuple.value.check(["a", 1])).toBeUndefined();
    expect(tuple.value.check(["a", 1, 2])).toBeDefined();
    const prefix = await prepareSchema({ type: "array", prefixItems: [{ type: "string" }], items: false }, 10_000);
    if (!prefix.ok) throw new Error(prefix.error.message);
    expect(prefix.value.check(["a", "b"])).toBeDefined();
  });

  test("formats are asserted where the validator knows them, accepted where it does not", async () => {
    const s = await prepareSchema(
      { type: "object", properties: { at: { type: "string", format: "date-time" }, who: { type: "string", format: "idn-email" } } },
      10_000,
    );
    if (!s.ok) throw new Error(s.error.message);
    expect(s.value.check({ at: "2026-01-01T00:00:00Z", who: "ü@例え.jp" })).toBeUndefined();
    expect(s.value.check({ at: "yesterday" })?.[0]).toMatchObject({ at: "/at", keyword: "format", limit: "date-time" });
  });

  test("a complaint names the path and the constraint from the schema, never the value", async () => {
    const s = await prepareSchema(
      { type: "object", required: ["city"], properties: { city: { type: "string", maxLength: 3 } }, additionalProperties: false },
      10_000,
    );
    if (!s.ok) throw new Error(s.error.message);
    const text = describeComplaints(s.value.check({ city: "SECRET-CITY", extra: 1 }) ?? []);
    expect(text).toContain("schema violation at /city: failed the 'maxLength' constraint (3)");
    expect(text).not.toContain("SECRET");
  });

  test("a reply in one ```json fence parses; prose around JSON does not; abstention is exactly one key", () => {
    expect(parseStructured('```json\n{"a":1}\n```')).toEqual({ ok: true, value: { a: 1 } });
    expect(parseStructured('Here you go: {"a":1}').ok).toBe(false);
    expect(isAbstention({ insufficient_context: true })).toBe(true);
    expect(isAbstention({ insufficient_context: true, name: "x" })).toBe(false);
  });
});
