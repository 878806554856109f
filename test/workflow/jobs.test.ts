/**
 * workflow_run_step as a job (issue 15): a step longer than the client's ceiling answers with a job
 * id, and job_wait returns its end shaped as the synchronous reply would be — a failed step isError
 * with the step's own code, and recorded failed on the workflow.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { CallToolResultSchema, CreateTaskResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { openWorkflowWorld, seedConfig, type WorkflowWorld } from "./world.ts";

let world: WorkflowWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

// claude's "slow" scenario answers after two seconds; the server's sync budget is one second.
const SLOW = { ORCHESTRATE_SYNC_BUDGET_S: "1", FAKE_CLAUDE_SCENARIO: "slow" };

interface Reply {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
}

/** The SDK's reply union narrowed to what these tests read, without a cast. */
async function callTool(w: WorkflowWorld, name: string, args: Record<string, unknown>): Promise<Reply> {
  const r = await w.session.client.callTool({ name, arguments: args });
  const data = r.structuredContent;
  return { isError: r.isError === true, ...(typeof data === "object" && data !== null ? { structuredContent: { ...data } } : {}) };
}

async function runAsJob(w: WorkflowWorld, wf: string, step: string): Promise<{ first: Reply; done: Reply }> {
  const plan = await w.call("workflow_plan_step", { workflow_id: wf, step, context: "README.md:\nhello\n" });
  expect(plan.error).toBeUndefined();
  const first = await callTool(w, "workflow_run_step", { workflow_id: wf, step_id: String(plan.step_id), token: String(plan.token) });
  const job = first.structuredContent?.job;
  const id = typeof job === "object" && job !== null && "id" in job ? String(job.id) : "";
  for (;;) {
    const done = await callTool(w, "job_wait", { id, waitSec: 1 });
    if (done.structuredContent?.status !== "running") return { first, done };
  }
}

describe("workflow steps as jobs", () => {
  test("a step longer than the sync budget answers with a job id; job_wait returns the step's result", async () => {
    const w = (world = await openWorkflowWorld(seedConfig(), SLOW));
    const wf = String((await w.call("workflow_start", { goal: "g", workdir: w.box.repo })).workflow_id);
    const { first, done } = await runAsJob(w, wf, "research");
    expect(first.isError).toBeFalsy();
    expect(first.structuredContent?.job).toMatchObject({ status: "running" });
    expect(done.isError).toBeFalsy();
    expect(done.structuredContent?.status).toBe("ok");
    expect(done.structuredContent?.result).toMatchObject({
      workflow_id: wf,
      step: "research",
      status: "succeeded",
      approval: "token",
      result: { text: expect.stringContaining("PONG-FROM-FAKE") },
    });
    const status = await w.call("workflow_status", { workflow_id: wf });
    expect(String(status.next)).toContain("plan");
  }, 60_000);

  test("a slow step that fails comes back from job_wait as isError with the step's code, and the step is failed", async () => {
    const config = seedConfig({ hostResearch: true }).replace(
      "implement: {agent: codex-sol, execution: isolated_write}",
      "implement: {agent: claude-opus, execution: patch}",
    );
    const w = (world = await openWorkflowWorld(config, SLOW));
    const wf = String((await w.call("workflow_start", { goal: "g", workdir: w.box.repo })).workflow_id);
    for (const s of ["research", "plan", "author_execution_prompt"]) {
      const plan = await w.call("workflow_plan_step", { workflow_id: wf, step: s, context: "" });
      await w.call("workflow_record_host_step", { workflow_id: wf, step_id: String(plan.step_id), token: String(plan.token), text: s });
    }
    const { first, done } = await runAsJob(w, wf, "implement");
    expect(first.isError).toBeFalsy();
    expect(done.isError).toBe(true);
    expect(done.structuredContent?.status).toBe("failed");
    // The fake's reply carries no diff: the patch step's own refusal, not a job-level one.
    expect(done.structuredContent?.error).toMatchObject({ code: "no_patch" });
    const status = await w.call("workflow_status", { workflow_id: wf });
    const steps = status.steps as { step: string; status: string }[];
    expect(steps.find((s) => s.step === "implement")?.status).toBe("failed");
  }, 60_000);
});

describe("workflow steps as MCP tasks, and in the background on request", () => {
  test("a Tasks-capable client runs workflow_run_step as a task: created, then its result past the sync budget", async () => {
    const w = (world = await openWorkflowWorld(seedConfig(), SLOW));
    const tools = await w.session.client.listTools();
    expect(tools.tools.find((t) => t.name.endsWith("workflow_run_step"))?.execution).toEqual({ taskSupport: "optional" });
    const wf = String((await w.call("workflow_start", { goal: "g", workdir: w.box.repo })).workflow_id);
    const plan = await w.call("workflow_plan_step", { workflow_id: wf, step: "research", context: "x" });
    const created = await w.session.client.request(
      {
        method: "tools/call",
        params: { name: "workflow_run_step", arguments: { workflow_id: wf, step_id: String(plan.step_id), token: String(plan.token) }, task: { ttl: 60_000 } },
      },
      CreateTaskResultSchema,
    );
    // tasks/result blocks until the task is terminal: a task waits for the real end (2 s) instead of turning into a job at 1 s.
    const result = await w.session.client.experimental.tasks.getTaskResult(created.task.taskId, CallToolResultSchema);
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      ok: true,
      workflow_id: wf,
      step: "research",
      status: "succeeded",
      result: { text: expect.stringContaining("PONG-FROM-FAKE") },
    });
    expect(result.structuredContent?.job).toBeUndefined();
    expect((await w.session.client.experimental.tasks.getTask(created.task.taskId)).status).toBe("completed");
  }, 60_000);

  test("background: true answers with the job at once, even for a step well inside the budget", async () => {
    const w = (world = await openWorkflowWorld(seedConfig()));
    const wf = String((await w.call("workflow_start", { goal: "g", workdir: w.box.repo })).workflow_id);
    const plan = await w.call("workflow_plan_step", { workflow_id: wf, step: "research", context: "x" });
    const first = await callTool(w, "workflow_run_step", { workflow_id: wf, step_id: String(plan.step_id), token: String(plan.token), background: true });
    expect(first.isError).toBeFalsy();
    const job = first.structuredContent?.job;
    expect(job).toMatchObject({ status: "running" });
    expect(first.structuredContent?.status).toBeUndefined();
    const id = typeof job === "object" && job !== null && "id" in job ? String(job.id) : "";
    let done: Reply = await callTool(w, "job_wait", { id, waitSec: 5 });
    while (done.structuredContent?.status === "running") done = await callTool(w, "job_wait", { id, waitSec: 5 });
    expect(done.structuredContent?.result).toMatchObject({ step: "research", status: "succeeded" });
  }, 60_000);
});
