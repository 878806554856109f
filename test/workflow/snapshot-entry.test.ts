/**
 * A workflow step runs the agent entry workflow_start snapshotted (issue 23): editing config.yaml
 * between plan and run changes neither the model the step is given nor its backend.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { type ClientSession } from "../../fakes/lib/mcp-client.ts";
import { connectInProcess } from "../../fakes/lib/in-process.ts";
import { openWorkflowWorld, seedConfig, type WorkflowWorld } from "./world.ts";

let world: WorkflowWorld | undefined;
let next: ClientSession | undefined;
afterEach(async () => {
  await next?.close().catch(() => undefined);
  await world?.close();
  world = undefined;
  next = undefined;
});

type Reply = Record<string, unknown> & { error?: { code: string; message: string } };

async function call(session: ClientSession, name: string, args: Record<string, unknown>): Promise<Reply> {
  const data = (await session.client.callTool({ name, arguments: args })).structuredContent;
  return typeof data === "object" && data !== null ? { ...data } : {};
}

/** Starts a workflow, plans research (claude-opus), then reconnects on a config edited by `edit`. */
async function editedBetweenSteps(edit: (text: string) => string): Promise<{ w: WorkflowWorld; wf: string; planned: Reply }> {
  const w = (world = await openWorkflowWorld(seedConfig()));
  const wf = String((await w.call("workflow_start", { goal: "g", workdir: w.box.repo })).workflow_id);
  const planned = await w.call("workflow_plan_step", { workflow_id: wf, step: "research", context: "x" });
  expect(planned.error).toBeUndefined();
  await w.session.close();
  w.box.writeConfig(edit(seedConfig()));
  next = await connectInProcess(w.box.env);
  return { w, wf, planned };
}

describe("workflow steps run the snapshotted agent entry", () => {
  test("a model edited after workflow_start is not the one the step runs", async () => {
    const { w, wf, planned } = await editedBetweenSteps((t) => t.replace("model: claude-opus-4-6", "model: claude-sonnet-4-5"));
    await call(next as ClientSession, "workflow_run_step", { workflow_id: wf, step_id: String(planned.step_id), token: String(planned.token) });
    const argv = w.box.recordings("claude").flatMap((r) => r.argv);
    expect(argv).toContain("claude-opus-4-6");
    expect(argv).not.toContain("claude-sonnet-4-5");
  }, 60_000);

  test("an entry whose runtime changed after workflow_start is refused, not run on the new backend", async () => {
    const { w, wf, planned } = await editedBetweenSteps((t) =>
      t.replace("runtime: claude\n      model: claude-opus-4-6", "runtime: gemini\n      model: gemini-2.5-pro"),
    );
    const ran = await call(next as ClientSession, "workflow_run_step", { workflow_id: wf, step_id: String(planned.step_id), token: String(planned.token) });
    expect(ran.error?.code).toBe("mode_refused");
    expect(ran.error?.message).toContain("replan");
    expect(w.box.recordings()).toEqual([]);
  }, 60_000);
});
