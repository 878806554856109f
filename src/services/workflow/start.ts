/**
 * workflow_start, cancel, delete (replan: replan.ts). Start resolves the workdir beneath a root (/ never,
 * nothing inferred), refuses a dirty tree unless allowed, and snapshots bindings, cap and policy:
 * an unbound review is refused here, before anything is spent.
 */
import { headCommit } from "../../git/worktree.ts";
import { runGit } from "../../git/run.ts";
import { gitEnv } from "../../git/fingerprint.ts";
import { checkCwd } from "../../safety/roots.ts";
import { fail, ok, type Result } from "../../result.ts";
import { newId } from "../../store/ids.ts";
import type { Host } from "../../routing/consult-plan.ts";
import { expandHome } from "../../config/paths.ts";
import type { Runtime } from "../shared/runtime.ts";
import { resolveSnapshot, type WorkflowSnapshot } from "./snapshot.ts";

export interface StartRequest {
  goal: string;
  workdir: string;
  bindings?: Record<string, Record<string, unknown>>;
  allow_dirty?: boolean;
}

export async function startWorkflow(
  rt: Runtime,
  req: StartRequest,
  host: Host,
): Promise<Result<{ workflow_id: string; commit: string; snapshot: WorkflowSnapshot }>> {
  const wfConfig = rt.config.consult.workflow;
  if (!wfConfig) return fail("workflows_not_configured", "The config has no consult.workflow block.");
  const roots = wfConfig.roots.length > 0 ? wfConfig.roots.map((r) => expandHome(r, rt.env)) : rt.roots;
  const cwd = checkCwd(req.workdir, roots);
  if (!cwd.ok) return cwd;
  const snapshot = resolveSnapshot(rt.config, rt.adapters, wfConfig, host, req.bindings ?? {});
  if (!snapshot.ok) return snapshot;
  const head = await headCommit(cwd.value);
  if (!head.ok) return fail("workdir_not_git", `${cwd.value} is not a git repository with a commit: ${head.message}`);
  if (!req.allow_dirty) {
    const status = await runGit(cwd.value, ["--no-optional-locks", "status", "--porcelain", "-uall"], {
      timeoutMs: 60_000,
      maxBytes: 1 << 20,
      env: gitEnv(process.env),
    });
    if (!status.ok || status.value.trim() !== "")
      return fail("workdir_dirty", `${cwd.value} has uncommitted changes${status.ok ? `: ${status.value.trim().split("\n").slice(0, 5).join(", ")}` : ""}.`);
  }
  const id = newId(rt.now());
  rt.store.workflows.create({ id, goal: req.goal, workdir: cwd.value, commit: head.value, snapshot: snapshot.value, now: rt.now() });
  return ok({ workflow_id: id, commit: head.value, snapshot: snapshot.value });
}

export function cancelWorkflow(rt: Runtime, workflowId: string): Result<{ workflow_id: string; status: "cancelled" }> {
  const wf = rt.store.workflows.get(workflowId);
  if (!wf) return fail("unknown_workflow", `No workflow "${workflowId}" is stored here.`);
  if (wf.status !== "active") return fail("workflow_wrong_state", `Workflow ${wf.id} is already ${wf.status}.`);
  rt.store.workflows.cancelPlanned(wf.id, rt.now());
  rt.store.workflows.update(wf.id, { status: "cancelled" }, rt.now());
  return ok({ workflow_id: wf.id, status: "cancelled" });
}

export function deleteWorkflow(rt: Runtime, workflowId: string): Result<{ workflow_id: string; deleted: true }> {
  const out = rt.store.workflows.delete(workflowId);
  if (out === "not_found") return fail("unknown_workflow", `No workflow "${workflowId}" is stored here.`);
  if (out === "running") return fail("still_running", `Workflow ${workflowId} has a step running; cancel it or wait.`);
  return ok({ workflow_id: workflowId, deleted: true });
}
