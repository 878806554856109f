import { describe, expect, test } from "bun:test";
import { backoffMs, legMarginMs, legTimeoutMs, MIN_LEG_MS, orderDeployments, roomForLeg } from "../../src/routing/ask-plan.ts";

describe("ask planning", () => {
  test("each leg gets slightly less than what is left: 2%, between 20 ms and 1 s", () => {
    expect(legTimeoutMs(120_000)).toBe(119_000);
    expect(legTimeoutMs(10_000)).toBe(9_800);
    expect(legTimeoutMs(500)).toBe(480);
    expect(legMarginMs(0)).toBe(20);
    expect(legTimeoutMs(10)).toBe(0);
  });

  test("no leg starts that could not get an answer, and no wait that would leave none", () => {
    expect(roomForLeg(MIN_LEG_MS + 20)).toBe(true);
    expect(roomForLeg(MIN_LEG_MS)).toBe(false);
    expect(roomForLeg(1000, 990)).toBe(false);
    expect(roomForLeg(1000, 500)).toBe(true);
  });

  test("backoff doubles from 250 ms to a cap of 8 s, and never undercuts retry-after", () => {
    expect([1, 2, 3, 6, 20].map((n) => backoffMs(n))).toEqual([250, 500, 1000, 8000, 8000]);
    expect(backoffMs(1, 3000)).toBe(3000);
    expect(backoffMs(3, 100)).toBe(1000);
  });

  test("ordered keeps the written order; weighted picks in proportion and still lists every deployment", () => {
    const ds = [
      { id: "a", weight: 1 },
      { id: "b", weight: 3 },
      { id: "c", weight: 1 },
    ];
    expect(orderDeployments(ds, "ordered", () => 0.99).map((d) => d.id)).toEqual(["a", "b", "c"]);
    expect(orderDeployments(ds, "weighted", () => 0).map((d) => d.id)).toEqual(["a", "b", "c"]);
    expect(orderDeployments(ds, "weighted", () => 0.5)[0]?.id).toBe("b");
    let seed = 1;
    const rand = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const firsts: Record<string, number> = { a: 0, b: 0, c: 0 };
    for (let i = 0; i < 5000; i++) {
      const order = orderDeployments(ds, "weighted", rand);
      expect(order).toHaveLength(3);
      firsts[order[0]?.id ?? ""] = (firsts[order[0]?.id ?? ""] ?? 0) + 1;
    }
    expect((firsts.b ?? 0) / 5000).toBeCloseTo(0.6, 1);
  });
});
