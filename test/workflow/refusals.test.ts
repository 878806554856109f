/** Every refusal issue 15 names, each through the real server: config at load, start, tokens, test reports, apply_patch. */
import { afterEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { openWorkflowWorld, seedConfig, type WorkflowWorld } from "./world.ts";

let world: WorkflowWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

async function startError(config: string): Promise<{ code: string; message: string } | undefined> {
  const w = (world = await openWorkflowWorld(config));
  return (await w.call("workflow_start", { goal: "g", workdir: w.box.repo })).error;
}

describe("config refusals (at load)", () => {
  test("mixing two binding shapes is a startup error", async () => {
    const err = await startError(seedConfig().replace("{agent: claude-opus}", "{agent: claude-opus, executor: host}"));
    expect(err?.code).toBe("config_invalid");
    expect(err?.message).toContain("mixes the host and agent binding shapes");
  });
  test("a workflow without store_full_content is refused", async () => {
    expect((await startError(seedConfig({ store: false })))?.message).toContain("needs store_full_content: true");
  });
  test("isolated_write on a backend that cannot be contained is refused, naming the backend", async () => {
    const err = await startError(
      seedConfig({ extraAgents: "    cp-agent:\n      runtime: copilot\n      model: gpt-5.2\n      execution_modes: [isolated_write]\n" }),
    );
    expect(err?.message).toContain("isolated_write cannot be contained on copilot");
  });
  test("a mode outside the agent's execution_modes is refused, naming the operator", async () => {
    const err = await startError(
      seedConfig().replace("      execution_modes: [consultation, patch, isolated_write]\n      scores: { coding: 90", "      scores: { coding: 90"),
    );
    expect(err?.message).toContain("not in codex-sol's execution_modes (the operator's trust)");
  });
});

describe("start refusals", () => {
  test("an unbound review is refused at workflow_start, before any step runs", async () => {
    const err = await startError(seedConfig({ review: false }));
    expect(err?.code).toBe("review_unbound");
    expect(world?.box.recordings()).toEqual([]);
  });
  test("a dirty tree is refused unless allow_dirty; a workdir outside the roots never", async () => {
    const w = (world = await openWorkflowWorld(seedConfig()));
    writeFileSync(join(w.box.repo, "dirty.txt"), "x");
    expect((await w.call("workflow_start", { goal: "g", workdir: w.box.repo })).error?.code).toBe("workdir_dirty");
    expect((await w.call("workflow_start", { goal: "g", workdir: w.box.repo, allow_dirty: true })).error).toBeUndefined();
    expect((await w.call("workflow_start", { goal: "g", workdir: "/" })).error?.code).toBe("cwd_outside_roots");
  });
});

describe("step refusals", () => {
  async function started(): Promise<{ w: WorkflowWorld; wf: string }> {
    const w = (world = await openWorkflowWorld(seedConfig().replace("research:  {agent: claude-opus}", "research:  {executor: host}")));
    return { w, wf: String((await w.call("workflow_start", { goal: "g", workdir: w.box.repo })).workflow_id) };
  }
  test("a token runs its step once; the wrong step is refused; context is redacted before it is stored", async () => {
    const { w, wf } = await started();
    expect((await w.call("workflow_plan_step", { workflow_id: wf, step: "plan", context: "" })).error?.code).toBe("wrong_step");
    const secret = `ghp_${"a1B2c3D4e5".repeat(4)}`;
    const p = await w.call("workflow_plan_step", { workflow_id: wf, step: "research", context: `token=${secret}` });
    expect(p.context_redacted).toBe(true);
    const args = { workflow_id: wf, step_id: p.step_id, token: p.token, text: "notes" };
    expect((await w.call("workflow_record_host_step", args)).status).toBe("succeeded");
    expect((await w.call("workflow_record_host_step", args)).error?.code).toBe("invalid_token");
    const { Database } = await import("bun:sqlite");
    const db = new Database(w.box.dbPath, { readonly: true });
    expect(JSON.stringify(db.query("SELECT * FROM workflow_steps").all())).not.toContain(secret);
    db.close();
  });

  async function atTest(): Promise<{ w: WorkflowWorld; wf: string }> {
    const { w, wf } = await started();
    for (const s of ["research", "plan", "author_execution_prompt", "implement"]) {
      const p = await w.call("workflow_plan_step", { workflow_id: wf, step: s, context: "c" });
      await w.call(p.executor === "host" ? "workflow_record_host_step" : "workflow_run_step", { workflow_id: wf, step_id: p.step_id, token: p.token });
    }
    return { w, wf };
  }

  test("apply_patch without a new commit is refused and marked failed", async () => {
    const { w, wf } = await atTest();
    const p = await w.call("workflow_plan_step", { workflow_id: wf, step: "apply_patch", context: "" });
    expect((await w.call("workflow_record_host_step", { workflow_id: wf, step_id: p.step_id, token: p.token })).error?.code).toBe("apply_not_committed");
    const status = await w.call("workflow_status", { workflow_id: wf });
    expect((status.steps as { step: string; status: string }[]).find((s) => s.step === "apply_patch")?.status).toBe("failed");
    expect(status.next).toContain("apply_patch");
  }, 30_000);

  test("a pass with a non-zero or missing exit code, or a fail with zero, is refused; the commit is stamped by the service", async () => {
    const { w, wf } = await atTest();
    w.git("commit", "-q", "--allow-empty", "-m", "applied");
    const a = await w.call("workflow_plan_step", { workflow_id: wf, step: "apply_patch", context: "" });
    await w.call("workflow_record_host_step", { workflow_id: wf, step_id: a.step_id, token: a.token });
    const p = await w.call("workflow_plan_step", { workflow_id: wf, step: "test", context: "" });
    const base = { workflow_id: wf, step_id: p.step_id, token: p.token };
    const t = { command: "bun test", output: "o", duration_ms: 1 };
    expect((await w.call("workflow_record_host_step", { ...base, test: { ...t, status: "pass", exit_code: 1 } })).error?.code).toBe("test_report_inconsistent");
    expect((await w.call("workflow_record_host_step", { ...base, test: { ...t, status: "pass" } })).error?.code).toBe("test_report_inconsistent");
    expect((await w.call("workflow_record_host_step", { ...base, test: { ...t, status: "fail", exit_code: 0 } })).error?.code).toBe("test_report_inconsistent");
    const ok = await w.call("workflow_record_host_step", { ...base, test: { ...t, status: "pass", exit_code: 0 } });
    const report = (ok.result as { report: { commit: string; reported_by: string } }).report;
    expect(report).toMatchObject({ commit: w.git("rev-parse", "HEAD").trim(), reported_by: "host" });
  }, 30_000);
});
