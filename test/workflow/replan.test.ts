/**
 * workflow_replan with its own approval (issue 15): the first call previews each named step's old
 * and new routing and what would be cancelled, changes nothing, and returns a one-time token; the
 * second spends it — asking the person where the client can — and applies. A reused, forged or
 * stale token (the decisions changed since the preview) is refused with invalid_token.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { type ClientSession } from "../../fakes/lib/mcp-client.ts";
import { connectInProcess } from "../../fakes/lib/in-process.ts";
import { openWorkflowWorld, seedConfig, type WorkflowWorld } from "./world.ts";

let world: WorkflowWorld | undefined;
let extra: ClientSession | undefined;
afterEach(async () => {
  await extra?.close().catch(() => undefined);
  await world?.close();
  world = undefined;
  extra = undefined;
});

type Reply = Record<string, unknown> & { error?: { code: string; message: string } };
type Call = (name: string, args: Record<string, unknown>) => Promise<Reply>;

function caller(session: ClientSession): Call {
  return async (name, args) => {
    const data = (await session.client.callTool({ name, arguments: args })).structuredContent;
    return typeof data === "object" && data !== null ? { ...data } : {};
  };
}

/** A workflow started under the seed config, with research planned, then a server on a config routing implement to gem. */
async function rerouted(opts: { elicit?: "accept" | "decline" } = {}): Promise<{ w: WorkflowWorld; call: Call; wf: string; planned: Reply }> {
  const w = (world = await openWorkflowWorld(seedConfig()));
  const wf = String((await w.call("workflow_start", { goal: "g", workdir: w.box.repo })).workflow_id);
  const planned = await w.call("workflow_plan_step", { workflow_id: wf, step: "research", context: "x" });
  await w.session.close();
  w.box.writeConfig(seedConfig({ implement: "gem" }));
  const answer = opts.elicit;
  extra = await connectInProcess(w.box.env, answer ? { elicit: async () => answer } : {});
  return { w, call: caller(extra), wf, planned };
}

const bindingsOf = async (call: Call, wf: string) => {
  const status = await call("workflow_status", { workflow_id: wf });
  return status.steps as { step_id: string; status: string }[];
};

describe("workflow_replan: preview, then apply with the token", () => {
  test("the preview shows old and new routing and what would be cancelled, and changes nothing", async () => {
    const { w, call, wf, planned } = await rerouted();
    const preview = await call("workflow_replan", { workflow_id: wf, steps: ["implement", "research"] });
    expect(preview.error).toBeUndefined();
    expect(preview.approval).toBe("token");
    expect(String(preview.token)).toStartWith("wfr_");
    const decisions = preview.decisions as { step: string; before: Record<string, unknown>; after: Record<string, unknown>; changed: boolean }[];
    expect(decisions.find((d) => d.step === "implement")).toMatchObject({
      changed: true,
      before: { executor: "agent", agent: { id: "codex-sol", backend: "codex" }, execution: "isolated_write" },
      after: {
        executor: "agent",
        agent: { id: "gem", backend: "gemini" },
        execution: "isolated_write",
        why: expect.stringContaining("consult.workflow.bindings.implement names gem"),
      },
    });
    expect(decisions.find((d) => d.step === "research")).toMatchObject({ changed: false, after: { agent: { id: "claude-opus" } } });
    expect(preview.cancels).toEqual([{ step_id: String(planned.step_id), step: "research", round: 0 }]);
    // Nothing changed: the planned step is still planned and still runs with its token.
    expect((await bindingsOf(call, wf)).find((s) => s.step_id === planned.step_id)?.status).toBe("planned");
    const applied = await call("workflow_replan", { workflow_id: wf, steps: ["implement", "research"], token: preview.token });
    expect(applied.error).toBeUndefined();
    expect(applied).toMatchObject({
      approval: "token",
      cancelled: 1,
      bindings: { implement: { agent: "gem" }, research: { agent: "claude-opus" }, fix: { agent: "codex-sol" } },
    });
    expect((await call("workflow_run_step", { workflow_id: wf, step_id: String(planned.step_id), token: String(planned.token) })).error?.code).toBe(
      "workflow_wrong_state",
    );
    expect(w.box.recordings()).toEqual([]);
  }, 60_000);

  test("a token is spent once; a forged one, or one presented for other steps, is refused", async () => {
    const { call, wf } = await rerouted();
    const preview = await call("workflow_replan", { workflow_id: wf, steps: ["implement"] });
    expect((await call("workflow_replan", { workflow_id: wf, steps: ["implement"], token: `wfr_${"A".repeat(32)}` })).error?.code).toBe("invalid_token");
    // Approving other steps than the preview named is refused, and spends the token.
    expect((await call("workflow_replan", { workflow_id: wf, steps: ["fix"], token: preview.token })).error?.code).toBe("invalid_token");
    expect((await call("workflow_replan", { workflow_id: wf, steps: ["implement"], token: preview.token })).error?.code).toBe("invalid_token");
    const again = await call("workflow_replan", { workflow_id: wf, steps: ["implement"] });
    expect((await call("workflow_replan", { workflow_id: wf, steps: ["implement"], token: again.token })).error).toBeUndefined();
    expect((await call("workflow_replan", { workflow_id: wf, steps: ["implement"], token: again.token })).error?.code).toBe("invalid_token");
    const status = await call("workflow_status", { workflow_id: wf });
    expect(status.status).toBe("active");
  }, 60_000);

  test("a token whose decisions changed since its preview is stale: refused, nothing applied", async () => {
    const { call, wf } = await rerouted();
    const first = await call("workflow_replan", { workflow_id: wf, steps: ["implement"] });
    const second = await call("workflow_replan", { workflow_id: wf, steps: ["implement"] });
    expect((await call("workflow_replan", { workflow_id: wf, steps: ["implement"], token: second.token })).error).toBeUndefined();
    // The first preview showed codex-sol → gem; implement is gem already, so that decision no longer holds.
    const stale = await call("workflow_replan", { workflow_id: wf, steps: ["implement"], token: first.token });
    expect(stale.error?.code).toBe("invalid_token");
    expect(stale.error?.message).toContain("no longer what replanning implement would decide");
  }, 60_000);

  test("a config change between preview and approval (a restarted server) leaves the token dead", async () => {
    const { w, call, wf } = await rerouted();
    const preview = await call("workflow_replan", { workflow_id: wf, steps: ["implement"] });
    await extra?.close();
    w.box.writeConfig(seedConfig());
    extra = await connectInProcess(w.box.env);
    const out = await caller(extra)("workflow_replan", { workflow_id: wf, steps: ["implement"], token: preview.token });
    expect(out.error?.code).toBe("invalid_token");
    const status = await caller(extra)("workflow_status", { workflow_id: wf });
    expect(status.status).toBe("active");
  }, 60_000);

  test("where the client can elicit, the person is asked; a decline applies nothing and kills the token", async () => {
    const declined = await rerouted({ elicit: "decline" });
    const preview = await declined.call("workflow_replan", { workflow_id: declined.wf, steps: ["implement"] });
    expect(preview.approval).toBe("elicitation");
    const out = await declined.call("workflow_replan", { workflow_id: declined.wf, steps: ["implement"], token: preview.token });
    expect(out.error?.code).toBe("replan_declined");
    expect((await declined.call("workflow_replan", { workflow_id: declined.wf, steps: ["implement"], token: preview.token })).error?.code).toBe(
      "invalid_token",
    );
    expect((await bindingsOf(declined.call, declined.wf)).map((s) => s.status)).toEqual(["planned"]);
  }, 60_000);

  test("an accepted elicitation applies the replan, recorded as approved by elicitation", async () => {
    const { call, wf } = await rerouted({ elicit: "accept" });
    const preview = await call("workflow_replan", { workflow_id: wf, steps: ["implement"] });
    const out = await call("workflow_replan", { workflow_id: wf, steps: ["implement"], token: preview.token });
    expect(out).toMatchObject({ approval: "elicitation", bindings: { implement: { agent: "gem" } } });
  }, 60_000);
});

describe("replan tokens against the config itself", () => {
  test("a config edited between preview and approval makes the token stale, whoever holds the store", async () => {
    const { makeSandbox } = await import("../../fakes/lib/sandbox.ts");
    const { createRuntime } = await import("../../src/services/shared/runtime.ts");
    const { startWorkflow } = await import("../../src/services/workflow/start.ts");
    const { previewReplan, applyReplan } = await import("../../src/services/workflow/replan.ts");
    const box = makeSandbox({ ORCHESTRATE_HOST_RUNTIME: "pi" });
    try {
      box.writeConfig(seedConfig());
      const before = await createRuntime(box.env);
      if (!before.ok) throw new Error(before.error.message);
      const host = { runtime: "pi" as const };
      const started = await startWorkflow(before.value, { goal: "g", workdir: box.repo }, host);
      if (!started.ok) throw new Error(started.error.message);
      box.writeConfig(seedConfig({ implement: "gem" }));
      const edited = await createRuntime(box.env);
      if (!edited.ok) throw new Error(edited.error.message);
      const preview = previewReplan(edited.value, started.value.workflow_id, ["implement"], host);
      if (!preview.ok) throw new Error(preview.error.message);
      // The operator edits the config again before the person approves: implement would now be codex-sol's.
      box.writeConfig(seedConfig());
      const reverted = await createRuntime(box.env);
      if (!reverted.ok) throw new Error(reverted.error.message);
      const out = await applyReplan(reverted.value, started.value.workflow_id, ["implement"], preview.value.token, host, undefined);
      expect(out.ok).toBe(false);
      expect(out.ok ? undefined : out.error.code).toBe("invalid_token");
      const wf = reverted.value.store.workflows.get(started.value.workflow_id);
      expect(JSON.stringify(wf?.snapshot)).toContain('"implement":{"kind":"agent","agent":"codex-sol"');
      for (const rt of [before, edited, reverted]) if (rt.ok) rt.value.store.close();
    } finally {
      box.cleanup();
    }
  }, 60_000);
});
