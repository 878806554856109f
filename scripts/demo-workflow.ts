/**
 * The demo's workflow: one pass of research → plan → brief → implement → apply → test → review →
 * synthesize, with the demo script playing the host. Each step is planned (a preview and a
 * one-time token) and then spent; implement runs in an isolated git worktree, its diff comes back,
 * and the host applies and commits it as apply_patch requires. The test the host records is a real
 * command it ran, with its real exit code. One line per step, then the patch and where it ended.
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { McpSession } from "../fakes/lib/mcp-client.ts";
import type { Sandbox } from "../fakes/lib/sandbox.ts";

type Out = (line: string) => void;
type Reply = Record<string, unknown>;

/** The config blocks the workflow needs: its own implementer (the fake edits), and the workflow block. */
export const WORKFLOW_AGENT = `  codex-worker:
    backend: codex
    model: gpt-5.5
    executionModes: [consultation, patch, isolated_write]
    scores: { coding: 80 }
    env: { FAKE_CODEX_SCENARIO: edits-then-ok, FAKE_MUTATION: edit-file }
`;
export const WORKFLOW_BLOCK = `  workflow:
    max_fix_rounds: 1
    bindings:
      implement: { agent: codex-worker, execution: isolated_write }
      fix:       { agent: codex-worker, execution: isolated_write }
      review:    { agents: [pi-reviewer] }
store:
  fullContent: true
`;

const GIT_ID = { GIT_AUTHOR_NAME: "demo", GIT_AUTHOR_EMAIL: "demo@example.invalid", GIT_COMMITTER_NAME: "demo", GIT_COMMITTER_EMAIL: "demo@example.invalid" };

export async function demoWorkflow(session: McpSession, box: Sandbox, out: Out): Promise<void> {
  const call = async (name: string, args: Reply): Promise<Reply> => {
    const data = (await session.client.callTool({ name, arguments: args })).structuredContent;
    return typeof data === "object" && data !== null ? { ...data } : {};
  };
  const run = (...args: string[]) => spawnSync("git", args, { cwd: box.repo, encoding: "utf8", env: { ...box.env, ...GIT_ID } });
  // A git step the host takes that fails must say so: silently it left the workflow refusing apply_patch.
  const git = (...args: string[]) => {
    const ran = run(...args);
    if (ran.status !== 0) throw new Error(`git ${args.join(" ")} failed: ${ran.stderr.trim()}`);
    return ran;
  };
  const start = await call("workflow_start", { goal: "Document the prefix index in the README", workdir: box.repo });
  const wf = String(start.workflow_id ?? "");
  if (!wf) return out(`  workflow_start refused: ${JSON.stringify(start.error)}`);
  out(`  workflow ${wf} at commit ${String(start.commit).slice(0, 8)}; bindings and policy snapshotted`);

  /** Plans a step (preview + one-time token), then spends the token with the tool the executor calls for. */
  const step = async (name: string, host: Reply = {}): Promise<Reply> => {
    const plan = await call("workflow_plan_step", { workflow_id: wf, step: name, context: "README.md: the project's readme\n" });
    if (plan.error) return plan;
    const ids = [plan.agent, ...(Array.isArray(plan.reviewers) ? plan.reviewers : [])].map((a) => (a as { id?: string } | undefined)?.id).filter(Boolean);
    const executor = plan.executor === "host" ? "host" : ids.join(", ") || String(plan.executor);
    const tool = plan.executor === "host" ? "workflow_record_host_step" : "workflow_run_step";
    const done = await call(tool, { workflow_id: wf, step_id: plan.step_id, token: plan.token, ...host });
    const error = done.error as { code?: string } | undefined;
    out(`  ${name.padEnd(24)} ${executor.padEnd(13)} ${error?.code ? `refused: ${error.code}` : String(done.status)}`);
    return done;
  };

  await step("research", { text: "The index lives in index.ts; find() filters every key." });
  await step("plan", { text: "Add a README section on prefix lookups." });
  await step("author_execution_prompt", { text: "Append a short 'Prefix lookups' section to README.md." });
  const implemented = await step("implement");
  const patch = String((implemented.result as { patch?: string } | undefined)?.patch ?? "");
  if (!patch) return;
  out(patch.trimEnd().replace(/^/gm, "    | "));
  // The host applies the diff to the real checkout and commits it: apply_patch needs a new commit.
  const file = join(box.root, "step.patch");
  writeFileSync(file, patch);
  git("apply", "--index", file);
  git("commit", "-q", "-m", "docs: prefix lookups");
  await step("apply_patch");
  // The host's test: its exit code is the result, whatever it is.
  const check = run("diff", "--check", "HEAD~1", "HEAD");
  await step("test", {
    test: {
      command: "git diff --check HEAD~1 HEAD",
      exit_code: check.status ?? 1,
      status: check.status === 0 ? "pass" : "fail",
      output: check.stdout || "(no whitespace errors)",
      duration_ms: 5,
    },
  });
  const reviewed = await step("review");
  const findings = Number((reviewed.result as { findings?: number } | undefined)?.findings ?? 0);
  await step("synthesize", {
    synthesis: {
      summary: `${findings} finding(s), none serious`,
      recommendation: "ship it",
      checked: ["README.md"],
      not_checked: [],
      combined_findings: [],
      agreements: [],
      disagreements: [],
    },
  });
  const status = await call("workflow_status", { workflow_id: wf });
  out(
    `  → status ${String(status.status)}, loop_done ${String(status.loop_done)} (tests passed for the current commit, every reviewer parsed, nothing serious open)`,
  );
}
