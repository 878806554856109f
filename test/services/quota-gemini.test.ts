/**
 * gemini's quota failure (src/backends/gemini/quota.ts; docs/design.md, "Quota"): "exhausted your
 * capacity … Your quota will reset after 2h27m11s" fails the turn at once; the route falls back
 * and the agent cools until that named reset — not for the capacity class's fixed time — and the
 * dry run says quota_exhausted with the reset.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Sandbox } from "../../fakes/lib/sandbox.ts";
import { geminiAdapter } from "../../src/backends/gemini/index.ts";
import { durationSec } from "../../src/backends/gemini/quota.ts";
import { routeTask } from "../../src/services/route/index.ts";
import { dryRun } from "../../src/services/route/tiers.ts";
import { cooldownsByAgent } from "../../src/services/shared/cooling.ts";
import { quotaByAgent } from "../../src/services/shared/quota.ts";
import type { Runtime } from "../../src/services/shared/runtime.ts";
import { openServiceWorld, type ServiceWorld } from "../helpers/service-world.ts";

const SPENT = "You have exhausted your capacity on this model. Your quota will reset after 2h27m11s.";
const RESET_MS = (2 * 3600 + 27 * 60 + 11) * 1000;

describe("gemini's quota text", () => {
  test("the result's error and the stderr line both name the exhausted window and its reset", () => {
    const result = JSON.stringify({ type: "result", status: "error", error: { type: "Error", message: `[API Error: ${SPENT}]` }, stats: {} });
    const fromResult = geminiAdapter.parse(result);
    expect(fromResult).toContainEqual({ kind: "quota", window: "model", state: "exhausted", resetsInSec: 8831, source: "gemini failure text" });
    expect(fromResult).toContainEqual(expect.objectContaining({ kind: "retry", failure: "capacity", retryAfterSec: 8831 }));
    expect(fromResult).toContainEqual(expect.objectContaining({ kind: "error", failure: "capacity" }));
    expect(geminiAdapter.parseStderr?.(`Attempt 1 failed: ${SPENT}`)).toContainEqual(expect.objectContaining({ kind: "quota", resetsInSec: 8831 }));
    // The daily-quota wording names no reset: a capacity failure with the class's own cooldown.
    expect(geminiAdapter.parse(result.replace(SPENT, "You have exhausted your daily quota on this model.")).some((e) => e.kind === "quota")).toBe(false);
  });

  test("durations as gemini prints them", () => {
    expect(durationSec("2h27m11s")).toBe(8831);
    expect(durationSec("48m20s")).toBe(2900);
    expect(durationSec("500ms")).toBe(0.5);
    expect(durationSec("soon")).toBeUndefined();
  });
});

let world: ServiceWorld;
let box: Sandbox;
let rt: Runtime;

beforeAll(async () => {
  world = await openServiceWorld(`agents:
  gem: { backend: gemini, model: gemini-2.5-pro, env: { FAKE_GEMINI_SCENARIO: quota-exhausted } }
  fine: { backend: claude, model: sonnet }
tiers:
  standard: [gem, fine]
allowCrossProviderFallback: true
`);
  ({ box, rt } = world);
});
afterAll(() => world.close());

describe("a gemini quota failure", () => {
  test("falls back at once and cools the agent until the reset gemini named", async () => {
    const before = Date.now();
    const routed = await routeTask(rt, { prompt: "x", cwd: box.repo, tier: "standard" });
    const after = Date.now();
    expect(routed.attempts).toHaveLength(2);
    expect(routed.attempts[0]).toMatchObject({ agent: "gem", outcome: "unavailable", fellBack: true });
    expect(routed.servedBy?.agent).toBe("fine");
    const until = cooldownsByAgent(rt, rt.now()).get("gem")?.until ?? 0;
    // 2h27m11s from when the failure was read, not the capacity class's 600 s.
    expect(until).toBeGreaterThanOrEqual(before + RESET_MS);
    expect(until).toBeLessThanOrEqual(after + RESET_MS);
    expect(quotaByAgent(rt).get("gem")).toEqual([expect.objectContaining({ window: "model", state: "exhausted", resetsAt: until })]);

    const plan = await dryRun(rt, { cwd: box.repo, tier: "standard" });
    if (!plan.ok) throw new Error(plan.error.message);
    expect(plan.value.decisions.find((d) => d.agent === "gem")?.reason).toMatch(/^quota_exhausted: model exhausted until \d\d:\d\d:\d\d UTC/);
    expect(plan.value.recipients.map((r) => r.agent)).toEqual(["fine"]);
  });
});
