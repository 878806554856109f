/**
 * Every egress at once (issue 21): credentials planted in prompts, context, review material, a
 * delegate's shell command (shown live in progress) and every delegate's answer, while a route, a
 * consult (and its job), a review, an ask and a workflow step run over the real stdio server with
 * the bundled fakes — then grepped for in every MCP reply, every notification, the server's stderr,
 * `orchestrate run`'s stdout and stderr, and the SQLite file and its WAL (read raw while the
 * server still runs, and again after a checkpoint).
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ProgressNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { startFakeProvider } from "../../fakes/lib/fake-provider.ts";
import { REPO_ROOT } from "../../fakes/lib/sandbox.ts";
import { SHAPES, shapesText } from "../helpers/credential-shapes.ts";
import { j, secretGenerator } from "../helpers/fake-secrets.ts";
import { openServerWorld, type World } from "../helpers/world.ts";
import type { McpSession } from "../../fakes/lib/mcp-client.ts";
import { openWorkflowServerWorld, seedConfig, type WorkflowWorld } from "../workflow/world.ts";
import { everythingStored } from "./stored-bytes.ts";

const rand = secretGenerator(2120);
const GHP = j("ghp_", rand(36));
const PROJ = j("sk-proj-", rand(48));
const ASK_KEY = ["plain", rand(24)].join("-");
/** Every planted secret value: none may leave by any path. */
const SECRETS = [GHP, PROJ, ...SHAPES.map((s) => s.secret)];
const LEAK = `${shapesText()}\nAuthorization: Bearer ${GHP}\nOPENAI_API_KEY=${PROJ}`;
/** What the route's delegate runs while orchestrate reports its progress. */
const COMMAND = `curl -H 'Authorization: Bearer ${GHP}' https://api.example.com && PGPASSWORD=${SHAPES[3]?.secret} psql -h db`;

const provider = startFakeProvider({ keys: { openai: ASK_KEY } });
afterAll(() => provider.stop());

let world: World<McpSession> | WorkflowWorld<McpSession> | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const yaml = (value: string) => JSON.stringify(value);

function config(): string {
  const review = JSON.stringify({
    summary: `s ${LEAK}`,
    findings: [{ severity: "minor", location: "a.ts", claim: `claim ${GHP}`, evidence: LEAK }],
    checked: ["x"],
    not_checked: [],
  });
  return `agents:
  rt: { backend: claude, model: claude-opus-4-6, env: { FAKE_SCENARIO: long, FAKE_EVENTS: "2", FAKE_EVENT_GAP_MS: "2500", FAKE_LONG_COMMAND: ${yaml(COMMAND)}, FAKE_REPLY: ${yaml(`done ${LEAK}`)} } }
  cs: { backend: codex, model: gpt-5.5, scores: { coding: 90 }, env: { FAKE_REPLY: ${yaml(`answer ${LEAK}`)} } }
  rv: { backend: opencode, model: opencode/deepseek-v4, env: { FAKE_REVIEW_REPLY: ${yaml(review)} } }
tiers: { light: [rt], standard: null, heavy: null }
consult:
  review:
    reviewers: [rv]
ask:
  cooldownSec: 0
  capabilities:
    fast:
      deployments: [{ model: openai/gpt-echo, baseUrl: "${provider.openaiBase}", apiKeyEnv: OPENAI_KEY }]
`;
}

/** The raw bytes of the store's files right now, the WAL included (no checkpoint: the server is live). */
function rawFiles(dbPath: string): string {
  return [dbPath, `${dbPath}-wal`]
    .filter(existsSync)
    .map((p) => readFileSync(p).toString("latin1"))
    .join("\n");
}

/** A secret's first 12 characters count as a leak: a progress line clips a long command mid-token. */
function leaks(where: string, text: string): string[] {
  return SECRETS.filter((s) => text.includes(s.slice(0, 12))).map((s) => `${where}: ${s.slice(0, 12)}…`);
}

describe("egress: planted credentials leave by no path", () => {
  test("route (live progress), consult and its job, review, ask and the CLI trace", async () => {
    provider.script("gpt-echo", { kind: "ok", text: `asked ${LEAK}` });
    world = await openServerWorld(config(), { ORCHESTRATE_HOST_RUNTIME: "gemini", OPENAI_KEY: ASK_KEY });
    const { box, session } = world;
    const progress: string[] = [];
    const replies: unknown[] = [];
    const call = async (name: string, args: Record<string, unknown>, onprogress?: (p: { message?: string | undefined }) => void) => {
      const reply = await session.client.callTool({ name, arguments: args }, undefined, { timeout: 120_000, ...(onprogress ? { onprogress } : {}) });
      replies.push(reply);
      return reply.structuredContent as Record<string, unknown>;
    };
    session.client.setNotificationHandler(ProgressNotificationSchema, (n) => void progress.push(JSON.stringify(n)));

    // `orchestrate run` beside the server, on the same config: its trace shows the same command.
    const cli = Bun.spawn([process.execPath, join(REPO_ROOT, "src", "main.ts"), "run", "--tier", "light", "--cwd", box.repo, `Fix it with ${GHP}`], {
      env: box.env,
      stdout: "pipe",
      stderr: "pipe",
    });
    const cliOut = Promise.all([new Response(cli.stdout).text(), new Response(cli.stderr).text(), cli.exited]);

    const routed = await call("route", { prompt: `Fix it with ${GHP} and ${LEAK}`, cwd: box.repo, tier: "light" }, (p) => void progress.push(p.message ?? ""));
    expect(routed.ok).toBe(true);
    const consulted = await call("consult", { prompt: `Why ${PROJ}?`, context: LEAK, capability: "coding" });
    expect(consulted.ok).toBe(true);
    const background = await call("consult", { prompt: `Again ${GHP}`, context: LEAK, capability: "coding", background: true });
    const jobId = (background.job as { id?: string } | undefined)?.id;
    expect(jobId).toBeString();
    await call("job_wait", { id: jobId, waitSec: 60 });
    await call("job_status", { id: jobId });
    const plan = await call("review", { goal: `Is ${GHP} safe?`, mode: "standard", reviewers: ["rv"], material: [{ text: LEAK }] });
    expect(plan.token).toBeString();
    const reviewed = await call("review_run", { review_id: plan.review_id, token: plan.token, host_findings: [{ severity: "minor", claim: `host ${PROJ}` }] });
    expect(reviewed.status).toBe("awaiting_synthesis");
    const asked = await call("ask", { capability: "fast", prompt: `Is ${ASK_KEY} ok? ${LEAK}` });
    expect(asked.ok).toBe(true);
    // Item 13: what the caller sent, echoed in a refusal — an unknown tool, arguments that do not validate.
    await call(`no_such_tool_${GHP}`, {});
    await call("route", { prompt: LEAK, cwd: box.repo, tier: `heavy-${PROJ}` });
    const live = rawFiles(box.dbPath);
    const [out, err] = await cliOut;
    await session.close();

    // Not vacuous: the live command was reported, scrubbed; answers came back, scrubbed.
    expect(progress.some((p) => p.includes("curl -H 'Authorization: Bearer [REDACTED"))).toBe(true);
    expect(err).toContain("curl -H 'Authorization: Bearer [REDACTED");
    expect(out).toContain("done ");
    expect(JSON.stringify(replies)).toContain("answer ");
    expect(JSON.stringify(replies)).toContain("No tool named");
    const stored = everythingStored(box.dbPath);
    expect(stored.rows).toContain("Fix it with [REDACTED:github]");
    const found = [
      ...leaks("MCP replies", JSON.stringify(replies)),
      ...leaks("progress notifications", progress.join("\n")),
      ...leaks("server stderr", session.stderr()),
      ...leaks("orchestrate run stdout", out),
      ...leaks("orchestrate run stderr", err),
      ...leaks("database and WAL while live", live),
      ...leaks("database tables", stored.rows),
      ...leaks("database files after a checkpoint", stored.bytes),
    ];
    expect(found).toEqual([]);
  }, 180_000);

  test("a workflow step: goal, context and the delegate's answer", async () => {
    const w = await openWorkflowServerWorld(seedConfig(), { FAKE_CLAUDE_SCENARIO: "ok", FAKE_REPLY: `research ${LEAK}` });
    world = w;
    const started = await w.call("workflow_start", { goal: `add a greeting, key ${PROJ}`, workdir: w.box.repo });
    const wf = String(started.workflow_id);
    const plan = await w.call("workflow_plan_step", { workflow_id: wf, step: "research", context: `notes ${LEAK}` });
    expect(plan.token).toBeString();
    const ran = await w.call("workflow_run_step", { workflow_id: wf, step_id: String(plan.step_id), token: String(plan.token) });
    const status = await w.call("workflow_status", { workflow_id: wf });
    const live = rawFiles(w.box.dbPath);
    const replies = JSON.stringify([started, plan, ran, status]);
    expect(replies).toContain("[REDACTED");
    const stderr = w.session.stderr();
    await w.session.close();
    const stored = everythingStored(w.box.dbPath);
    const found = [
      ...leaks("MCP replies", replies),
      ...leaks("server stderr", stderr),
      ...leaks("database and WAL while live", live),
      ...leaks("database tables", stored.rows),
      ...leaks("database files after a checkpoint", stored.bytes),
    ];
    expect(found).toEqual([]);
  }, 120_000);
});
