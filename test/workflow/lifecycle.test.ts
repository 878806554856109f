/**
 * Patch mode end to end, workflow_replan, workflow_cancel, workflow_delete and
 * review_policy.different_from_planner (issue 15), through the real server and client.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { connectInProcess } from "../../fakes/lib/in-process.ts";
import { openWorkflowWorld, seedConfig, type WorkflowWorld } from "./world.ts";

let world: WorkflowWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

type Reply = Awaited<ReturnType<WorkflowWorld["call"]>>;
const PATCH = "diff --git a/GREETING.md b/GREETING.md\nnew file mode 100644\n--- /dev/null\n+++ b/GREETING.md\n@@ -0,0 +1 @@\n+hello\n";
const PATCH_MODE = (cfg: string) => cfg.replace("implement: {agent: codex-sol, execution: isolated_write}", "implement: {agent: codex-sol, execution: patch}");

async function plan(w: WorkflowWorld, wf: string, step: string): Promise<Reply> {
  return w.call("workflow_plan_step", { workflow_id: wf, step, context: "README.md:\nhello\n" });
}

async function spend(w: WorkflowWorld, wf: string, p: Reply, extra: Record<string, unknown> = {}): Promise<Reply> {
  const tool = p.executor === "host" ? "workflow_record_host_step" : "workflow_run_step";
  return w.call(tool, { workflow_id: wf, step_id: String(p.step_id), token: String(p.token), ...extra });
}

async function start(w: WorkflowWorld): Promise<string> {
  return String((await w.call("workflow_start", { goal: "add a greeting", workdir: w.box.repo })).workflow_id);
}

async function hostThrough(w: WorkflowWorld, wf: string, steps: readonly string[]): Promise<void> {
  for (const s of steps) expect((await spend(w, wf, await plan(w, wf, s), { text: s })).status).toBe("succeeded");
}

const stepsOf = async (w: WorkflowWorld, wf: string) =>
  (await w.call("workflow_status", { workflow_id: wf })).steps as { step_id: string; step: string; status: string; error_code?: string }[];

/** research and plan by claude-opus, the implement patch applied and committed, a passing test: the review is next. */
async function throughTest(w: WorkflowWorld, wf: string): Promise<void> {
  expect((await spend(w, wf, await plan(w, wf, "research"))).status).toBe("succeeded");
  expect((await spend(w, wf, await plan(w, wf, "plan"))).status).toBe("succeeded");
  await hostThrough(w, wf, ["author_execution_prompt"]);
  const impl = await spend(w, wf, await plan(w, wf, "implement"));
  const file = join(w.box.root, "impl.patch");
  writeFileSync(file, String((impl.result as { patch: string }).patch));
  w.git("apply", "--index", file);
  w.git("commit", "-q", "-m", "apply");
  await hostThrough(w, wf, ["apply_patch"]);
  expect(
    (await spend(w, wf, await plan(w, wf, "test"), { test: { command: "bun test", exit_code: 0, status: "pass", output: "ok", duration_ms: 1 } })).status,
  ).toBe("succeeded");
}

describe("patch mode", () => {
  test("the diff comes back for the host to apply; apply_patch without a new commit is refused, with one it advances", async () => {
    const w = (world = await openWorkflowWorld(PATCH_MODE(seedConfig({ hostResearch: true })), {
      FAKE_CODEX_SCENARIO: "ok",
      FAKE_REPLY: `Adds the greeting.\n\n\`\`\`diff\n${PATCH}\`\`\``,
    }));
    const wf = await start(w);
    await hostThrough(w, wf, ["research", "plan", "author_execution_prompt"]);
    const impl = await spend(w, wf, await plan(w, wf, "implement"));
    expect(impl.status).toBe("awaiting_host_apply");
    expect(impl.result).toMatchObject({ mode: "patch", patch: PATCH, summary: "Adds the greeting." });
    // The agent never saw the checkout: nothing in it changed.
    expect(w.git("status", "--porcelain")).toBe("");
    const refused = await spend(w, wf, await plan(w, wf, "apply_patch"));
    expect(refused.error?.code).toBe("apply_not_committed");
    const file = join(w.box.root, "impl.patch");
    writeFileSync(file, String((impl.result as { patch: string }).patch));
    w.git("apply", "--index", file);
    w.git("commit", "-q", "-m", "apply");
    const head = w.git("rev-parse", "HEAD").trim();
    const applied = await spend(w, wf, await plan(w, wf, "apply_patch"));
    expect(applied.status).toBe("succeeded");
    expect(applied.result).toMatchObject({ commit: head });
    const status = await w.call("workflow_status", { workflow_id: wf });
    expect(String(status.next)).toContain("test");
    expect((await stepsOf(w, wf)).filter((s) => s.step === "apply_patch").map((s) => s.status)).toEqual(["failed", "succeeded"]);
  }, 60_000);
});

describe("replan, cancel, delete", () => {
  test("workflow_replan re-decides only the named steps from the current config; planned tokens die", async () => {
    const w = (world = await openWorkflowWorld(seedConfig()));
    const wf = await start(w);
    const planned = await plan(w, wf, "research");
    // The config now routes both research and implement elsewhere, read by a restarted server; only implement is replanned.
    await w.session.close();
    w.box.writeConfig(seedConfig({ implement: "gem" }).replace("research:  {agent: claude-opus}", "research:  {agent: gem}"));
    const next = await connectInProcess(w.box.env);
    const call = async (name: string, args: Record<string, unknown>): Promise<Reply> => {
      const data = (await next.client.callTool({ name, arguments: args })).structuredContent;
      return typeof data === "object" && data !== null ? { ...data } : {};
    };
    try {
      const preview = await call("workflow_replan", { workflow_id: wf, steps: ["implement"] });
      expect(preview.error).toBeUndefined();
      const replanned = await call("workflow_replan", { workflow_id: wf, steps: ["implement"], token: preview.token });
      expect(replanned.error).toBeUndefined();
      const bindings = replanned.bindings as Record<string, { agent?: string }>;
      expect(bindings.implement?.agent).toBe("gem");
      expect(bindings.research?.agent).toBe("claude-opus");
      expect(bindings.fix?.agent).toBe("codex-sol");
      const dead = await call("workflow_run_step", { workflow_id: wf, step_id: String(planned.step_id), token: String(planned.token) });
      expect(dead.error?.code).toBe("workflow_wrong_state");
      const again = await call("workflow_plan_step", { workflow_id: wf, step: "research", context: "x" });
      expect(again.agent).toMatchObject({ id: "claude-opus" });
      expect(w.box.recordings()).toEqual([]);
    } finally {
      await next.close();
    }
  }, 60_000);

  test("two plans of one step at once leave one planned step: only the later token runs", async () => {
    const w = (world = await openWorkflowWorld(seedConfig()));
    const wf = await start(w);
    await throughTest(w, wf);
    // A review step's plan awaits the review's own planning, so two calls interleave in one server.
    const [a, b] = await Promise.all([plan(w, wf, "review"), plan(w, wf, "review")]);
    expect(a.error).toBeUndefined();
    expect(b.error).toBeUndefined();
    const planned = (await stepsOf(w, wf)).filter((s) => s.status === "planned");
    expect(planned).toHaveLength(1);
    const [stale, live] = a.step_id === planned[0]?.step_id ? [b, a] : [a, b];
    expect((await spend(w, wf, stale)).error?.code).toBe("workflow_wrong_state");
    expect((await spend(w, wf, live)).error?.code).not.toBe("workflow_wrong_state");
  }, 60_000);

  test("workflow_cancel kills planned tokens and ends the workflow; delete removes it", async () => {
    const w = (world = await openWorkflowWorld(seedConfig()));
    const wf = await start(w);
    const planned = await plan(w, wf, "research");
    expect((await w.call("workflow_cancel", { workflow_id: wf })).status).toBe("cancelled");
    expect((await spend(w, wf, planned)).error?.code).toBe("workflow_wrong_state");
    expect((await plan(w, wf, "research")).error?.code).toBe("workflow_wrong_state");
    expect((await w.call("workflow_cancel", { workflow_id: wf })).error?.code).toBe("workflow_wrong_state");
    expect(w.box.recordings()).toEqual([]);
    expect((await w.call("workflow_delete", { workflow_id: wf })).deleted).toBe(true);
    expect((await w.call("workflow_status", { workflow_id: wf })).error?.code).toBe("unknown_workflow");
    expect((await w.call("workflow_status", {})).workflows).toEqual([]);
    expect((await w.call("workflow_delete", { workflow_id: wf })).error?.code).toBe("unknown_workflow");
  }, 60_000);
});

describe("review_policy.different_from_planner", () => {
  const ALIAS = `    claude-alias:
      runtime: claude
      model: claude-opus-4-6
      execution_modes: [consultation]
      scores: { review: 50 }
`;
  const config = (reviewers: string) =>
    seedConfig({ extraAgents: ALIAS })
      .replace("different_from_implementer: true", "different_from_implementer: true\n      different_from_planner: true")
      .replace("review:    {agents: [claude-opus]}", `review:    {agents: [${reviewers}]}`);

  async function toReview(w: WorkflowWorld, wf: string): Promise<Reply> {
    await throughTest(w, wf);
    return plan(w, wf, "review");
  }

  test("the planner's execution identity is kept off the review, however its agent id is spelled", async () => {
    const w = (world = await openWorkflowWorld(config("claude-alias, gem")));
    const review = await toReview(w, await start(w));
    expect(review.error).toBeUndefined();
    expect((review.reviewers as { id: string }[]).map((r) => r.id)).toEqual(["gem"]);
  }, 60_000);

  test("a review left with no reviewer but the planner's model is refused, naming the rule", async () => {
    const w = (world = await openWorkflowWorld(config("claude-opus, claude-alias")));
    const review = await toReview(w, await start(w));
    expect(review.error?.code).toBe("mode_refused");
    expect(review.error?.message).toContain("different_from_planner");
  }, 60_000);
});
