/**
 * Workflows end to end (issue 15): a real MCP client over stdio, the real server process, the fake
 * CLIs as agents and reviewers, a real git repository and SQLite file, and a seed-001 config.yaml
 * with host: and workflow: blocks as written.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { openWorkflowWorld, REVIEW_CLEAN, REVIEW_IMPORTANT, seedConfig, type WorkflowWorld } from "./world.ts";

let world: WorkflowWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

type Reply = Awaited<ReturnType<WorkflowWorld["call"]>>;
const str = (r: Reply, key: string): string => String(r[key]);

async function step(w: WorkflowWorld, wf: string, name: string, extra: Record<string, unknown> = {}, context = "README.md:\nhello\n"): Promise<Reply> {
  const plan = await w.call("workflow_plan_step", { workflow_id: wf, step: name, context });
  expect(plan.error).toBeUndefined();
  const tool = plan.executor === "host" ? "workflow_record_host_step" : "workflow_run_step";
  return w.call(tool, { workflow_id: wf, step_id: str(plan, "step_id"), token: str(plan, "token"), ...extra });
}

/** The host applies the step's patch to the real checkout and commits: what apply_patch requires. */
function applyAndCommit(w: WorkflowWorld, patch: string): void {
  const file = join(w.box.root, "step.patch");
  writeFileSync(file, patch);
  w.git("apply", "--index", file);
  w.git("commit", "-q", "-m", "apply step patch");
}

const synthesis = (disposition: "open" | "fixed", sources: string[]) => ({
  summary: "s",
  recommendation: "r",
  checked: [],
  not_checked: [],
  agreements: [],
  disagreements: [],
  combined_findings: sources.length
    ? [{ severity: "important", claim: "c", sources, disposition, ...(disposition === "fixed" ? { reason: "fixed in round" } : {}) }]
    : [],
});

async function toReview(w: WorkflowWorld, wf: string, fix: boolean): Promise<void> {
  const impl = await step(w, wf, fix ? "fix" : "implement");
  expect(impl.status).toBe("awaiting_host_apply");
  const patch = String((impl.result as { patch: string }).patch);
  applyAndCommit(w, patch);
  expect((await step(w, wf, "apply_patch")).status).toBe("succeeded");
  expect((await step(w, wf, "test", { test: { command: "bun test", exit_code: 0, status: "pass", output: "ok", duration_ms: 5 } })).status).toBe("succeeded");
  expect((await step(w, wf, "review")).status).toBe("succeeded");
}

async function findingIds(w: WorkflowWorld, wf: string): Promise<string[]> {
  const status = await w.call("workflow_status", { workflow_id: wf });
  return (status.open_findings as { id: string; severity: string }[]).filter((f) => f.severity !== "minor").map((f) => f.id);
}

describe("workflow end to end", () => {
  test("start → research → plan → brief → implement (isolated_write) → apply → test → review → fix round → completed", async () => {
    const w = (world = await openWorkflowWorld(seedConfig()));
    writeFileSync(w.reviewFile, REVIEW_IMPORTANT);
    const start = await w.call("workflow_start", { goal: "add a greeting", workdir: w.box.repo });
    expect(start.error).toBeUndefined();
    const wf = str(start, "workflow_id");
    expect((await step(w, wf, "research")).status).toBe("succeeded");
    expect((await step(w, wf, "plan")).status).toBe("succeeded");
    expect((await step(w, wf, "author_execution_prompt", { text: "brief" })).status).toBe("succeeded");
    await toReview(w, wf, false);
    const open = await findingIds(w, wf);
    expect(open.length).toBe(1);
    expect((await step(w, wf, "synthesize", { synthesis: synthesis("open", open) })).status).toBe("succeeded");
    let status = await w.call("workflow_status", { workflow_id: wf });
    expect(status.loop_done).toBe(false);
    expect(status.next).toContain("fix");
    // Round 1: the fix carries the open finding, read back from the review row.
    writeFileSync(w.reviewFile, REVIEW_CLEAN);
    const fixPlan = await w.call("workflow_plan_step", { workflow_id: wf, step: "fix", context: "x" });
    expect(fixPlan.open_findings).toBe(1);
    await toReviewAfterPlan(w, wf, fixPlan);
    expect((await step(w, wf, "synthesize", { synthesis: synthesis("open", []) })).status).toBe("succeeded");
    status = await w.call("workflow_status", { workflow_id: wf });
    expect(status.status).toBe("completed");
    expect(status.loop_done).toBe(true);
    expect(status.round).toBe(1);
  }, 60_000);

  test("ends needs_attention at the round cap with a serious finding open", async () => {
    const w = (world = await openWorkflowWorld(seedConfig({ maxFixRounds: 1 })));
    writeFileSync(w.reviewFile, REVIEW_IMPORTANT);
    const wf = str(await w.call("workflow_start", { goal: "g", workdir: w.box.repo }), "workflow_id");
    for (const s of ["research", "plan", "author_execution_prompt"]) await step(w, wf, s);
    await toReview(w, wf, false);
    await step(w, wf, "synthesize", { synthesis: synthesis("open", await findingIds(w, wf)) });
    await toReview(w, wf, true);
    await step(w, wf, "synthesize", { synthesis: synthesis("open", await findingIds(w, wf)) });
    const status = await w.call("workflow_status", { workflow_id: wf });
    expect(status.status).toBe("needs_attention");
    expect(status.loop_done).toBe(false);
  }, 60_000);
});

async function toReviewAfterPlan(w: WorkflowWorld, wf: string, plan: Reply): Promise<void> {
  const impl = await w.call("workflow_run_step", { workflow_id: wf, step_id: str(plan, "step_id"), token: str(plan, "token") });
  expect(impl.status).toBe("awaiting_host_apply");
  applyAndCommit(w, String((impl.result as { patch: string }).patch));
  expect((await step(w, wf, "apply_patch")).status).toBe("succeeded");
  expect((await step(w, wf, "test", { test: { command: "bun test", exit_code: 0, status: "pass", output: "ok", duration_ms: 5 } })).status).toBe("succeeded");
  expect((await step(w, wf, "review")).status).toBe("succeeded");
}
