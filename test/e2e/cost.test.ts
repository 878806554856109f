/**
 * Cost end to end through a real MCP client (docs/cost.md): estimates before sending in
 * router_dry_run, the review plan and ask's dry run; a codex route's cost, which the CLI never
 * reports, estimated from its tokens and kept as such in the history; maxCostUsd held to it.
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import type { ToolReply } from "../../fakes/lib/mcp-client.ts";
import { startFakeProvider } from "../../fakes/lib/fake-provider.ts";
import { openWorld, type World } from "../helpers/world.ts";
import { orchestrate } from "../setup/helpers.ts";
import { openWorkflowWorld, seedConfig, type WorkflowWorld } from "../workflow/world.ts";

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const provider = startFakeProvider({});
afterAll(() => provider.stop());

async function open(config: string, env: Record<string, string> = {}): Promise<World> {
  world = await openWorld(config, env);
  return world;
}

async function call(w: World, name: string, args: Record<string, unknown>): Promise<ToolReply> {
  return (await w.session.client.callTool({ name, arguments: args })) as ToolReply;
}

type Estimate = { estimate: true; method: string; inputTokens: number; maxOutputTokens: number; price: string; usdLow?: number; usdHigh?: number };
const data = (r: ToolReply) => (r.structuredContent ?? {}) as Record<string, unknown>;
const codeOf = (r: ToolReply) => (data(r).error as { code?: string } | undefined)?.code;

function tierConfig(agents: string): string {
  return `agents:\n${agents}tiers: { light: null, standard: null, heavy: [a] }\n`;
}

// The fake codex reports 42 input and 7 output tokens and no cost, as the real one reports usage.
// At the catalog's gpt-5.5 prices ($5 in, $30 out per million): 42 × 5 + 7 × 30 = 420 µ$.
const GPT55_RUN_USD = 0.00042;

describe("a codex route's cost is estimated from its tokens", () => {
  test("the reply, the stored attempt, the usage row and `orchestrate history show` all say estimated", async () => {
    const w = await open(tierConfig("  a: { backend: codex, model: gpt-5.5 }\n"));
    const r = await call(w, "route", { prompt: "do it", cwd: w.box.repo, tier: "heavy" });
    expect(r.isError).toBeFalsy();
    const usage = data(r).usage as { costUsd?: number; costEstimated?: boolean };
    expect(usage.costEstimated).toBe(true);
    expect(usage.costUsd).toBeCloseTo(GPT55_RUN_USD, 10);
    expect(String(data(r).costNotice)).toContain("codex reports tokens but no cost");
    const db = new Database(w.box.dbPath, { readonly: true });
    try {
      const row = db.query<{ cost_usd: number; cost_estimated: number }, []>(`SELECT cost_usd, cost_estimated FROM usage WHERE source = 'attempt'`).get();
      expect(row?.cost_estimated).toBe(1);
      expect(row?.cost_usd).toBeCloseTo(GPT55_RUN_USD, 10);
    } finally {
      db.close();
    }
    const shown = await orchestrate(["history", "show", String(data(r).runId)], w.box.env);
    expect(shown.stdout).toContain("42/7 tokens · $0.0004 (estimated)");
  });

  test("the config's prices: win over the catalog's", async () => {
    const w = await open(`${tierConfig("  a: { backend: codex, model: gpt-5.5 }\n")}prices:\n  gpt-5.5: { inputPerMTok: 1000, outputPerMTok: 1000 }\n`);
    const r = await call(w, "route", { prompt: "do it", cwd: w.box.repo, tier: "heavy" });
    // (42 + 7) × 1000 / 1e6
    expect((data(r).usage as { costUsd?: number }).costUsd).toBeCloseTo(0.049, 10);
    expect(String(data(r).costNotice)).toContain("the config's prices:");
  });

  test("an agent's maxCostUsd on codex is enforced on the estimate, and the reply says so", async () => {
    const w = await open(tierConfig("  a: { backend: codex, model: gpt-5.5, limits: { maxCostUsd: 0.0001 } }\n"));
    const r = await call(w, "route", { prompt: "do it", cwd: w.box.repo, tier: "heavy" });
    expect(codeOf(r)).toBe("budget_exceeded");
    expect(String(data(r).costNotice)).toContain("maxCostUsd 0.0001 was enforced on this estimate");
  });

  test("a per-call maxCostUsd above the estimate lets the run through", async () => {
    const w = await open(tierConfig("  a: { backend: codex, model: gpt-5.5 }\n"));
    const r = await call(w, "route", { prompt: "do it", cwd: w.box.repo, tier: "heavy", limits: { maxCostUsd: 0.01 } });
    expect(r.isError).toBeFalsy();
    expect(String(data(r).costNotice)).toContain("maxCostUsd 0.01 was enforced on this estimate");
  });

  test("maxCostUsd on a codex model with no price is still refused before spawning", async () => {
    const w = await open(tierConfig("  a: { backend: codex, model: gpt-6.2-sol }\n"));
    const r = await call(w, "route", { prompt: "do it", cwd: w.box.repo, tier: "heavy", limits: { maxCostUsd: 1 } });
    expect(codeOf(r)).toBe("limit_unenforceable");
    expect(JSON.stringify(data(r))).toContain("its model has no price");
    expect(w.box.recordings("codex").filter((rec) => rec.argv[0] === "exec")).toEqual([]);
  });
});

describe("answer turns (consult, review, smoke)", () => {
  test("a consult to codex reports its estimated cost", async () => {
    const w = await open("agents:\n  a: { backend: codex, model: gpt-5.5, scores: { coding: 90 } }\n", { ORCHESTRATE_HOST_RUNTIME: "gemini" });
    const r = await call(w, "consult", { prompt: "q", capability: "coding" });
    expect(r.isError).toBeFalsy();
    expect(data(r).usage).toMatchObject({ inputTokens: 42, outputTokens: 7, costEstimated: true });
    expect((data(r).usage as { costUsd?: number }).costUsd).toBeCloseTo(GPT55_RUN_USD, 10);
  });

  test("an agent's maxCostUsd on codex with no price for its model is refused before anything is sent", async () => {
    const w = await open("agents:\n  a: { backend: codex, model: gpt-6.2-sol, scores: { coding: 90 }, limits: { maxCostUsd: 1 } }\n", {
      ORCHESTRATE_HOST_RUNTIME: "gemini",
    });
    const r = await call(w, "consult", { prompt: "q", capability: "coding" });
    expect(codeOf(r)).toBe("limit_unenforceable");
    expect(w.box.recordings("codex").filter((rec) => rec.argv[0] === "exec")).toEqual([]);
  });
});

describe("estimates before sending", () => {
  test("router_dry_run shows each recipient's estimate from the prompt, and unknown for a model without a price", async () => {
    const w = await open(
      "agents:\n  a: { backend: codex, model: gpt-5.5, limits: { maxTokens: 1100 } }\n  b: { backend: codex, model: gpt-6.2-sol }\ntiers: { light: null, standard: null, heavy: [a, b] }\nallowCrossProviderFallback: true\n",
    );
    const r = await call(w, "router_dry_run", { cwd: w.box.repo, tier: "heavy", prompt: "p".repeat(400) });
    const [a, b] = (data(r).recipients as { cost?: Estimate }[]).map((x) => x.cost);
    // 400 chars → 100 tokens; maxTokens 1100 leaves 1000 out: low 100 × 5 / 1e6, high + 1000 × 30 / 1e6.
    expect(a).toMatchObject({ estimate: true, method: "chars/4", inputTokens: 100, maxOutputTokens: 1000, price: "catalog" });
    expect(a?.usdLow).toBeCloseTo(0.0005, 10);
    expect(a?.usdHigh).toBeCloseTo(0.0305, 10);
    expect(b).toMatchObject({ estimate: true, price: "unknown" });
    expect(b?.usdLow).toBeUndefined();
    expect(r.content?.[0]?.text).toContain("~$0.0005–$0.0305 (estimate: 100 tokens in by chars/4");
    expect(w.box.recordings("codex").filter((rec) => rec.argv[0] === "exec")).toEqual([]);
  });

  test("`orchestrate run --dry-run` with a prompt prints the same estimate from a shell", async () => {
    const w = await open(tierConfig("  a: { backend: codex, model: gpt-5.5, limits: { maxTokens: 1100 } }\n"));
    const out = await orchestrate(["run", "--dry-run", "--tier", "heavy", "--cwd", w.box.repo, "p".repeat(400)], w.box.env);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain("~$0.0005–$0.0305 (estimate: 100 tokens in by chars/4, ≤ 1000 out (the limit); catalog price)");
    expect(w.box.recordings("codex").filter((rec) => rec.argv[0] === "exec")).toEqual([]);
  });

  test("the review plan shows each reviewer's estimate, and its total is their sum", async () => {
    const w = await open(
      "agents:\n  r1: { backend: claude, model: claude-sonnet-4-6 }\n  r2: { backend: gemini, model: gemini-2.5-flash }\nconsult:\n  review:\n    deep_reviewers: [r1, r2]\n",
      { ORCHESTRATE_HOST_RUNTIME: "codex" },
    );
    const r = await call(w, "review", { goal: "check it", mode: "deep", material: [{ text: "m".repeat(3992) }] });
    const cost = data(r).cost as { reviewers: (Estimate & { id: string })[]; total: { usdLow?: number; usdHigh?: number } };
    const [r1, r2] = cost.reviewers;
    // goal (8) + material (3992) = 4000 chars → 1000 tokens each, output bounded by the typical 8000.
    expect(r1).toMatchObject({ id: "r1", inputTokens: 1000, maxOutputTokens: 8000, price: "catalog" });
    expect(r1?.usdHigh).toBeCloseTo((1000 * 3 + 8000 * 15) / 1e6, 10);
    expect(r2?.usdHigh).toBeCloseTo((1000 * 0.3 + 8000 * 2.5) / 1e6, 10);
    expect(cost.total.usdLow).toBeCloseTo((r1?.usdLow ?? 0) + (r2?.usdLow ?? 0), 12);
    expect(cost.total.usdHigh).toBeCloseTo((r1?.usdHigh ?? 0) + (r2?.usdHigh ?? 0), 12);
    expect(r.content?.[0]?.text).toContain("Estimated cost, first request per reviewer: ~$");
  });

  test("ask with dry_run: true returns its deployments with estimates and sends nothing", async () => {
    const w = await open(
      `ask:\n  capabilities:\n    fast:\n      deployments: [{ model: openai/gpt-5.5, baseUrl: "${provider.openaiBase}" }]\n      fallbacks: [slow]\n    slow:\n      deployments: [{ model: openai/no-such-model-7, baseUrl: "${provider.openaiBase}" }]\n`,
    );
    const r = await call(w, "ask", { capability: "fast", prompt: "q".repeat(40), max_output_tokens: 100, dry_run: true });
    expect(r.isError).toBeFalsy();
    const plan = data(r).dry_run as { deployments: { capability: string; fallback: boolean; cost: Estimate }[] };
    expect(plan.deployments.map((d) => [d.capability, d.fallback, d.cost.price])).toEqual([
      ["fast", false, "catalog"],
      ["slow", true, "unknown"],
    ]);
    // 40 chars → 10 tokens; at most 100 out: 10 × 5 / 1e6 … + 100 × 30 / 1e6.
    expect(plan.deployments[0]?.cost.usdLow).toBeCloseTo(0.00005, 12);
    expect(plan.deployments[0]?.cost.usdHigh).toBeCloseTo(0.00305, 12);
    expect(provider.received()).toEqual([]);
    const db = new Database(w.box.dbPath, { readonly: true });
    try {
      expect(db.query<{ n: number }, []>(`SELECT count(*) AS n FROM asks`).get()?.n).toBe(0);
    } finally {
      db.close();
    }
  });

  test("a workflow step preview shows the step's agent's estimate; a host step has none", async () => {
    const wfw: WorkflowWorld = await openWorkflowWorld(seedConfig({ hostResearch: true }));
    try {
      const wf = String((await wfw.call("workflow_start", { goal: "add a greeting", workdir: wfw.box.repo })).workflow_id);
      const research = await wfw.call("workflow_plan_step", { workflow_id: wf, step: "research", context: "c" });
      expect(research.cost).toBeUndefined();
      for (const step of ["research", "plan", "author_execution_prompt"]) {
        const p = await wfw.call("workflow_plan_step", { workflow_id: wf, step, context: "c" });
        await wfw.call("workflow_record_host_step", { workflow_id: wf, step_id: String(p.step_id), token: String(p.token), text: step });
      }
      const impl = await wfw.call("workflow_plan_step", { workflow_id: wf, step: "implement", context: "README.md:\nhello\n" });
      const cost = impl.cost as { reviewers: (Estimate & { id: string })[]; total: { usdLow?: number; usdHigh?: number } };
      // codex-sol is gpt-5.5 ($5 in, $30 out): the step's whole prompt by chars/4, output the typical 8000.
      expect(cost.reviewers[0]).toMatchObject({ id: "codex-sol", estimate: true, method: "chars/4", maxOutputTokens: 8000, price: "catalog" });
      const tokensIn = cost.reviewers[0]?.inputTokens ?? 0;
      expect(tokensIn).toBeGreaterThan(0);
      expect(cost.total.usdLow).toBeCloseTo((tokensIn * 5) / 1e6, 12);
      expect(cost.total.usdHigh).toBeCloseTo((tokensIn * 5 + 8000 * 30) / 1e6, 12);
    } finally {
      await wfw.close();
    }
  });
});
