/**
 * A seed-001 world for workflow tests: a real MCP client, the real server (in this process, or
 * spawned for what only a process shows — docs/testing.md), fakes as agents, a real repo.
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { connectInProcess } from "../../fakes/lib/in-process.ts";
import { connect, type ClientSession, type McpSession } from "../../fakes/lib/mcp-client.ts";
import { makeSandbox, type Sandbox } from "../../fakes/lib/sandbox.ts";

export interface WorkflowWorld<S extends ClientSession = ClientSession> {
  box: Sandbox;
  session: S;
  reviewFile: string;
  call(name: string, args?: Record<string, unknown>): Promise<Record<string, unknown> & { ok?: boolean; error?: { code: string; message: string } }>;
  git(...args: string[]): string;
  close(): Promise<void>;
}

/** Seed 001's config.yaml as written: one consult: block with host:, agents and workflow:. */
export function seedConfig(
  opts: { hostResearch?: boolean; implement?: string | undefined; maxFixRounds?: number; review?: boolean; extraAgents?: string; store?: boolean } = {},
): string {
  return `consult:
  store_full_content: ${opts.store === false ? "false" : "true"}
  host:
    runtime: pi
  agents:
    codex-sol:
      runtime: codex
      model: gpt-5.5
      execution_modes: [consultation, patch, isolated_write]
      scores: { coding: 90, research: 50, planning: 50 }
    claude-opus:
      runtime: claude
      model: claude-opus-4-6
      execution_modes: [consultation, patch, isolated_write]
      scores: { review: 90, research: 80, planning: 80, coding: 40 }
    gem:
      runtime: gemini
      model: gemini-2.5-pro
      execution_modes: [consultation, patch, isolated_write]
      scores: { coding: 30 }
${opts.extraAgents ?? ""}  workflow:
    max_fix_rounds: ${opts.maxFixRounds ?? 2}
    advance_on_failed_test: false
    review_policy:
      different_from_implementer: true
    bindings:
      research:  ${opts.hostResearch ? "{executor: host}" : "{agent: claude-opus}"}
      plan:      ${opts.hostResearch ? "{executor: host}" : "{agent: claude-opus}"}
      author_execution_prompt: {executor: host}
      implement: {agent: ${opts.implement ?? "codex-sol"}, execution: isolated_write}
      apply_patch: {executor: host}
      test:      {executor: host}
${opts.review === false ? "" : "      review:    {agents: [claude-opus]}\n"}      synthesize: {executor: host}
      fix:       {agent: ${opts.implement ?? "codex-sol"}, execution: isolated_write}
`;
}

export const REVIEW_IMPORTANT = JSON.stringify({
  summary: "s",
  findings: [{ severity: "important", location: "README.md", claim: "IMPORTANT-ISSUE", evidence: "e" }],
  checked: ["x"],
  not_checked: [],
});
export const REVIEW_CLEAN = JSON.stringify({
  summary: "s",
  findings: [{ severity: "minor", location: "README.md", claim: "nit", evidence: "e" }],
  checked: ["x"],
  not_checked: [],
});

export function openWorkflowWorld(config: string, env: Record<string, string> = {}): Promise<WorkflowWorld> {
  return open(config, env, (e) => connectInProcess(e));
}

/** The same world over a spawned server process, for tests that read its stderr. */
export function openWorkflowServerWorld(config: string, env: Record<string, string> = {}): Promise<WorkflowWorld<McpSession>> {
  return open(config, env, (e) => connect(e));
}

async function open<S extends ClientSession>(
  config: string,
  env: Record<string, string>,
  start: (env: Record<string, string>) => Promise<S>,
): Promise<WorkflowWorld<S>> {
  const box = makeSandbox({
    ORCHESTRATE_HOST_RUNTIME: "pi",
    FAKE_CODEX_SCENARIO: "edits-then-ok",
    FAKE_CLAUDE_SCENARIO: "edits-then-ok",
    FAKE_GEMINI_SCENARIO: "edits-then-ok",
    FAKE_MUTATION: "workflow-set",
    ...env,
  });
  const reviewFile = join(box.root, "review-reply.json");
  writeFileSync(reviewFile, REVIEW_CLEAN);
  box.env.FAKE_REVIEW_REPLY_FILE = reviewFile;
  box.env.FAKE_CLAUDE_SCENARIO = env.FAKE_CLAUDE_SCENARIO ?? "ok";
  // "<repo>" stands for the sandbox's checkout, which exists only once the sandbox does.
  for (const [key, value] of Object.entries(box.env)) if (value === "<repo>") box.env[key] = box.repo;
  box.writeConfig(config);
  const git = (...args: string[]) => {
    const out = spawnSync("git", args, {
      cwd: box.repo,
      encoding: "utf8",
      env: { ...box.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@example.invalid", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@example.invalid" },
    });
    if (out.status !== 0) throw new Error(`git ${args.join(" ")}: ${out.stderr}`);
    return out.stdout;
  };
  writeFileSync(join(box.repo, "DELETE_ME.txt"), "to be deleted\n");
  writeFileSync(join(box.repo, ".gitignore"), "ignored/\n");
  git("add", "-A");
  git("commit", "-q", "-m", "fixture");
  const session = await start(box.env);
  return {
    box,
    session,
    reviewFile,
    git,
    call: async (name, args = {}) => {
      const reply = await session.client.callTool({ name, arguments: args });
      const data = reply.structuredContent;
      return typeof data === "object" && data !== null ? { ...data } : {};
    },
    close: async () => {
      await session.close().catch(() => undefined);
      box.cleanup();
    },
  };
}
