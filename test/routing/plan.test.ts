import { describe, expect, test } from "bun:test";
import { planRoute } from "../../src/routing/plan.ts";
import { agent, configWith } from "../helpers/config.ts";

const NOW = 1_000_000;
const none = new Map<string, { until: number }>();

const base = configWith(
  [
    agent("oc", "opencode", { model: "deepseek/v4" }),
    agent("oc-vision", "opencode", { model: "deepseek/v4-vl", capabilities: ["vision"] }),
    agent("cx", "codex"),
    agent("cl", "claude"),
    agent("cl2", "claude", { model: "sonnet" }),
    agent("router", "opencode", { model: "openrouter/deepseek/v4" }),
  ],
  {
    tiers: { light: ["oc"], standard: ["cx"], heavy: ["cl", "cl2"] },
    capabilitySlots: { vision: ["oc-vision"] },
    fallbacks: { heavy: "standard", standard: "light" },
  },
);

function ids(result: ReturnType<typeof planRoute>): string[] {
  if (!result.ok) throw new Error(result.error.message);
  return result.plan.candidates.map((c) => c.agent.id);
}

describe("planRoute", () => {
  test("tier entries in order, and no cross-provider hop without consent", () => {
    const result = planRoute({ tier: "heavy", caps: [] }, base, none, NOW);
    expect(ids(result)).toEqual(["cl", "cl2"]);
    if (!result.ok) return;
    const skipped = result.plan.decisions.filter((d) => d.decision === "skip");
    expect(skipped.map((d) => d.agentId)).toEqual(["cx", "oc"]);
    expect(skipped[0]?.reason).toContain("allowCrossProviderFallback");
  });

  test("cross-provider hops follow the fallback chain only with consent", () => {
    const result = planRoute({ tier: "heavy", caps: [] }, { ...base, allowCrossProviderFallback: true }, none, NOW);
    expect(ids(result)).toEqual(["cl", "cl2", "cx", "oc"]);
    if (!result.ok) return;
    expect(result.plan.candidates.map((c) => c.crossesProvider)).toEqual([false, false, true, true]);
  });

  test("an aggregator prefix is a crossing even under the same upstream vendor", () => {
    const cfg = { ...base, tiers: { ...base.tiers, light: ["oc", "router"] } };
    const result = planRoute({ tier: "light", caps: [] }, cfg, none, NOW);
    expect(ids(result)).toEqual(["oc"]);
    const allowed = planRoute({ tier: "light", caps: [] }, { ...cfg, allowCrossProviderFallback: true }, none, NOW);
    if (!allowed.ok) throw new Error("plan failed");
    expect(allowed.plan.candidates.find((c) => c.agent.id === "router")?.crossesProvider).toBe(true);
  });

  test("cooling and disabled agents are skipped with a reason", () => {
    const cooling = new Map([["cl", { until: NOW + 5000 }]]);
    const cfg = { ...base, agents: { ...base.agents, cl2: { ...base.agents.cl2!, enabled: false } } };
    const result = planRoute({ tier: "heavy", caps: [] }, { ...cfg, allowCrossProviderFallback: true }, cooling, NOW);
    expect(ids(result)).toEqual(["cx", "oc"]);
    if (!result.ok) return;
    expect(result.plan.decisions.find((d) => d.agentId === "cl")?.reason).toContain("cooling");
    expect(result.plan.decisions.find((d) => d.agentId === "cl2")?.reason).toContain("disabled");
  });

  test("an expired cooldown no longer skips", () => {
    const cooling = new Map([["cl", { until: NOW - 1 }]]);
    expect(ids(planRoute({ tier: "heavy", caps: [] }, base, cooling, NOW))).toEqual(["cl", "cl2"]);
  });

  test("caps filter tier entries, then fall to the capability slot", () => {
    expect(ids(planRoute({ tier: "light", caps: ["vision"] }, base, none, NOW))).toEqual(["oc-vision"]);
  });

  test("unconfigured tier without a fallback is refused with the fix", () => {
    const cfg = configWith([], {});
    const result = planRoute({ tier: "light", caps: [] }, cfg, none, NOW);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("tier_unconfigured");
    expect(result.error.message).toContain("tiers.light");
  });

  test("timeoutSec outside 30–3600 is refused", () => {
    for (const t of [29, 3601, Number.NaN]) {
      const result = planRoute({ tier: "light", caps: [], timeoutSec: t }, base, none, NOW);
      expect(result.ok ? "ok" : result.error.code).toBe("invalid_timeout");
    }
  });

  test("budget: first attempt gets nearly all, later ones keep a reserve", () => {
    const result = planRoute({ tier: "heavy", caps: [], timeoutSec: 600 }, base, none, NOW);
    if (!result.ok) throw new Error("plan failed");
    expect(result.plan.budget.totalSec).toBe(600);
    expect(result.plan.budget.reserveSec).toBe(60);
    expect(result.plan.budget.perAttemptSec).toEqual([540, 600]);
  });

  test("a fallback cycle stops at the first repeat", () => {
    const cfg = { ...base, fallbacks: { light: "standard" as const, standard: "light" as const } };
    expect(ids(planRoute({ tier: "light", caps: [] }, { ...cfg, allowCrossProviderFallback: true }, none, NOW))).toEqual(["oc", "cx"]);
  });

  test("consent is checked on every candidate: a cooling first entry does not let the next provider in", () => {
    const cooling = new Map([["cl", { until: NOW + 5000 }]]);
    const cfg = { ...base, agents: { ...base.agents, cl2: { ...base.agents.cl2!, enabled: false } } };
    const result = planRoute({ tier: "heavy", caps: [] }, cfg, cooling, NOW);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("no_candidates");
    expect(result.error.message).toContain("cx: would cross from provider anthropic to openai");
  });

  test("each included candidate names the consent rule that let it in", () => {
    const result = planRoute({ tier: "heavy", caps: [] }, { ...base, allowCrossProviderFallback: true }, new Map([["cl", { until: NOW + 5000 }]]), NOW);
    if (!result.ok) throw new Error(result.error.message);
    expect(result.plan.candidates.map((c) => [c.agent.id, c.consent])).toEqual([
      ["cl2", "same-provider"],
      ["cx", "allowCrossProviderFallback"],
      ["oc", "allowCrossProviderFallback"],
    ]);
  });

  test("an aggregator as the tier's own first entry needs no consent, and says so", () => {
    const cfg = { ...base, tiers: { ...base.tiers, light: ["router", "oc"] } };
    const result = planRoute({ tier: "light", caps: [] }, cfg, none, NOW);
    if (!result.ok) throw new Error(result.error.message);
    expect(result.plan.candidates.map((c) => [c.agent.id, c.consent])).toEqual([["router", "home-entry"]]);
    expect(result.plan.decisions.find((d) => d.agentId === "router")?.reason).toContain("first entry");
    // Once the aggregator is cooling, the plain opencode entry is a crossing away from it: refused.
    const cooled = planRoute({ tier: "light", caps: [] }, cfg, new Map([["router", { until: NOW + 5000 }]]), NOW);
    expect(cooled.ok).toBe(false);
  });
});
