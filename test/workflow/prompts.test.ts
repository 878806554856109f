/**
 * The `workflow` prompt and `status` covering workflows (issue 15): offered only with a
 * consult.workflow block, like the workflow tools, and expanding either sends nothing.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { openWorkflowWorld, seedConfig, type WorkflowWorld } from "./world.ts";

let world: WorkflowWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

async function expand(w: WorkflowWorld, name: string, args: Record<string, string> = {}): Promise<string> {
  const prompt = await w.session.client.getPrompt({ name, arguments: args });
  return prompt.messages.map((m) => (m.content.type === "text" ? m.content.text : "")).join("");
}

describe("workflow prompts", () => {
  test("without a workflow block neither the prompt nor status's workflow lines are offered", async () => {
    const plain = seedConfig().slice(0, seedConfig().indexOf("  workflow:"));
    const w = (world = await openWorkflowWorld(plain));
    expect((await w.session.client.listPrompts()).prompts.map((p) => p.name)).not.toContain("workflow");
    expect((await w.session.client.listTools()).tools.map((t) => t.name).filter((n) => n.includes("workflow"))).toEqual([]);
    await expect(w.session.client.getPrompt({ name: "workflow", arguments: {} })).rejects.toThrow();
    expect(await expand(w, "status", { id: "x" })).not.toContain("workflow_status");
  });

  test("with one, `workflow` walks the two-call handshake and asks for what is missing; `status` looks workflows up; nothing is sent", async () => {
    const w = (world = await openWorkflowWorld(seedConfig()));
    expect((await w.session.client.listPrompts()).prompts.map((p) => p.name)).toContain("workflow");
    const fresh = await expand(w, "workflow");
    expect(fresh).toContain("ask the person");
    expect(fresh).toContain("workflow_start");
    expect(fresh).toContain("workflow_plan_step");
    expect(fresh).toContain("job_wait");
    const given = await expand(w, "workflow", { goal: "add a greeting", workdir: w.box.repo });
    expect(given).toContain("add a greeting");
    expect(given).not.toContain("First ask the person");
    const resumed = await expand(w, "workflow", { workflow_id: "wf1" });
    expect(resumed).toContain('workflow_status` with workflow_id "wf1"');
    expect(resumed).not.toContain("workflow_start");
    // A seed 001 config: the prompts name the tools as tools/list does (mcp/tools/names.ts).
    expect(await expand(w, "status", { id: "wf1" })).toContain("`orchestrator_workflow_status` with workflow_id");
    expect(await expand(w, "status")).toContain("`orchestrator_workflow_status` without an id");
    expect(w.box.recordings()).toEqual([]);
    expect((await w.call("workflow_status", {})).workflows).toEqual([]);
  });
});
