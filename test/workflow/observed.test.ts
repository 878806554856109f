/**
 * Tests observed, not claimed (issue 15): a test step bound to an agent in isolated_write gets a
 * TestReport with reported_by "orchestrator" built from the command executions and exit codes in
 * the CLI's own event stream (the codex fake's command_execution items); the agent's prose is kept
 * only as what it claimed.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openWorkflowWorld, seedConfig, type WorkflowWorld } from "./world.ts";

let world: WorkflowWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

type Reply = Awaited<ReturnType<WorkflowWorld["call"]>>;
const CLAIM = "I ran the whole suite: all tests pass.";
// codex-sol scores for testing here, so the test step can be bound to it.
const config = seedConfig({ hostResearch: true, implement: "gem" })
  .replace("scores: { coding: 90, research: 50, planning: 50 }", "scores: { coding: 90, research: 50, planning: 50, testing: 80 }")
  .replace("test:      {executor: host}", "test:      {agent: codex-sol, execution: isolated_write}");

async function step(w: WorkflowWorld, wf: string, name: string, extra: Record<string, unknown> = {}): Promise<Reply> {
  const plan = await w.call("workflow_plan_step", { workflow_id: wf, step: name, context: "README.md:\nhello\n" });
  expect(plan.error).toBeUndefined();
  const tool = plan.executor === "host" ? "workflow_record_host_step" : "workflow_run_step";
  return w.call(tool, { workflow_id: wf, step_id: String(plan.step_id), token: String(plan.token), ...extra });
}

async function toTest(exit: number, env: Record<string, string> = {}): Promise<{ w: WorkflowWorld; wf: string; test: Reply }> {
  const w = (world = await openWorkflowWorld(config, { FAKE_CODEX_SCENARIO: "runs-tests", FAKE_TEST_EXIT: String(exit), FAKE_REPLY: CLAIM, ...env }));
  const wf = String((await w.call("workflow_start", { goal: "g", workdir: w.box.repo })).workflow_id);
  for (const s of ["research", "plan", "author_execution_prompt"]) await step(w, wf, s, { text: s });
  const impl = await step(w, wf, "implement");
  const file = join(w.box.root, "impl.patch");
  writeFileSync(file, String((impl.result as { patch: string }).patch));
  w.git("apply", "--index", file);
  w.git("commit", "-q", "-m", "apply");
  expect((await step(w, wf, "apply_patch")).status).toBe("succeeded");
  return { w, wf, test: await step(w, wf, "test") };
}

const reportOf = (r: Reply) => (r.result as { report: Record<string, unknown> }).report;

describe("tests observed", () => {
  test("exit codes from the event stream make the report; the agent's claim is kept as reported text", async () => {
    const { w, wf, test: run } = await toTest(0);
    expect(run.status).toBe("succeeded");
    const report = reportOf(run);
    expect(report).toMatchObject({
      reported_by: "orchestrator",
      status: "pass",
      exit_code: 0,
      command: "/bin/bash -lc 'npm test'",
      claimed: CLAIM,
      commit: w.git("rev-parse", "HEAD").trim(),
    });
    expect(report.observed).toEqual([{ command: "/bin/bash -lc 'npm test'", exit_code: 0 }]);
    expect(report.provenance).toContain("event stream");
    const status = await w.call("workflow_status", { workflow_id: wf });
    expect(String(status.next)).toContain("review");
    expect(w.git("status", "--porcelain")).toBe("");
  }, 60_000);

  test("a failing command fails the report whatever the agent says, and the workflow goes back to fixing", async () => {
    const { w, wf, test: run } = await toTest(1);
    const report = reportOf(run);
    expect(report).toMatchObject({ reported_by: "orchestrator", status: "fail", exit_code: 1, claimed: CLAIM });
    const status = await w.call("workflow_status", { workflow_id: wf });
    expect(String(status.next)).toContain("fix");
  }, 60_000);

  test("a repository created while testing fails the step and keeps the worktree, named in the error", async () => {
    const { w, wf, test: run } = await toTest(0, { FAKE_TEST_MUTATION: "nested-git" });
    expect(run.error?.code).toBe("nested_repository");
    const path = /kept at (\S+) /.exec(run.error?.message ?? "")?.[1] ?? "";
    expect(path).toContain(join(w.box.root, "state", "worktrees"));
    expect(existsSync(join(path, "sub", "a.txt"))).toBe(true);
    const status = await w.call("workflow_status", { workflow_id: wf });
    const steps = status.steps as { step: string; status: string; error?: { code: string } }[];
    expect(steps.find((s) => s.step === "test")).toMatchObject({ status: "failed", error: { code: "nested_repository" } });
    expect(w.git("status", "--porcelain")).toBe("");
  }, 60_000);
});

describe("test steps on backends whose contained runs execute no command", () => {
  // claude (acceptEdits) is denied test runners headless; gemini (auto_edit) is offered no shell at all.
  for (const [backend, agent] of [
    ["claude", "claude-opus"],
    ["gemini", "gem"],
  ] as const) {
    test(`${backend}: an isolated_write test step is refused at workflow_start, naming the backend side`, async () => {
      const bound = seedConfig({ hostResearch: true, implement: "codex-sol" })
        .replaceAll("scores: { coding: 30 }", "scores: { coding: 30, testing: 80 }")
        .replace(
          "scores: { review: 90, research: 80, planning: 80, coding: 40 }",
          "scores: { review: 90, research: 80, planning: 80, coding: 40, testing: 80 }",
        )
        .replace("test:      {executor: host}", `test:      {agent: ${agent}, execution: isolated_write}`);
      const w = (world = await openWorkflowWorld(bound));
      const out = await w.call("workflow_start", { goal: "g", workdir: w.box.repo });
      expect(out.error?.code).toBe("mode_refused");
      expect(out.error?.message).toContain(`Step test: backend: ${backend} cannot run a test step's commands contained`);
      expect(w.box.recordings()).toEqual([]);
    }, 60_000);
  }
});
