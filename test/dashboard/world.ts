/**
 * A demo world whose store holds real history: routed runs (served, fell back, failed), consulted
 * turns (verified and a model mismatch), a review, a background job, a workflow taken from start
 * through an isolated_write implement step, the host's apply and test report, and a review step, and
 * two asks against a loopback fake provider (one served after a 429, one filtered) —
 * all made by `orchestrate run`, `orchestrate consult` and a real MCP client through the bundled
 * fakes — then a dashboard process over it, its URL read from its stdout.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { connect, type ClientSession } from "../../fakes/lib/mcp-client.ts";
import { DEMO_CONFIG, demoSandbox } from "../../fakes/lib/demo-world.ts";
import { startFakeProvider } from "../../fakes/lib/fake-provider.ts";
import { FAKES_DIR, type Sandbox } from "../../fakes/lib/sandbox.ts";
import { BUN, MAIN, orchestrate } from "../setup/helpers.ts";

export interface Filled {
  box: Sandbox;
  /** Exit codes of the shell calls, in order (the runs the pages must show). */
  codes: number[];
  workflow: WorkflowMade;
  asks: AsksMade;
}

/** What the world's asks left: the capability both went to and the model that served the first. */
export interface AsksMade {
  capability: string;
  servedModel: string;
  prompt: string;
}

/** What the world's workflows left, for the pages to show. */
export interface WorkflowMade {
  /** Taken through implement → apply → test → review; waiting for the host's synthesis. */
  id: string;
  /** Started and cancelled at once. */
  cancelled: string;
  patch: string;
  reviewId: string;
  /** The output the host's test report carried. */
  testOutput: string;
}

/** codex-main is trusted to write in a worktree; the workflow's review goes to cheap (a different agent). */
const WORLD_CONFIG = `${DEMO_CONFIG.replace("    scores: { review: 90, coding: 85 }\n", "    scores: { review: 90, coding: 85 }\n    executionModes: [consultation, patch, isolated_write]\n")}consult:
  review:
    reviewers: [codex-main]
  workflow:
    max_fix_rounds: 1
    bindings:
      research: {executor: host}
      plan: {executor: host}
      author_execution_prompt: {executor: host}
      implement: {agent: codex-main, execution: isolated_write}
      apply_patch: {executor: host}
      test: {executor: host}
      review: {agents: [cheap]}
      synthesize: {executor: host}
      fix: {agent: codex-main, execution: isolated_write}
`;

export const TEST_OUTPUT = "bun test v1.4.5\n 12 pass\n 0 fail\n<script>alert('not run')</script>\n";

/**
 * The fakes reached through ~/.local/bin (a symlink to fakes/), where install.sh puts binaries, so
 * the pages — and the screenshots in docs/dashboard/ — show `~/.local/bin/codex`, not this
 * machine's checkout path.
 */
function fakesUnderHome(box: Sandbox): void {
  mkdirSync(join(box.home, ".local"), { recursive: true });
  symlinkSync(FAKES_DIR, join(box.home, ".local", "bin"));
  box.env.PATH = [join(box.home, ".local", "bin"), ...(box.env.PATH ?? "").split(":").filter((d) => d !== FAKES_DIR)].join(":");
}

export async function filledWorld(): Promise<Filled> {
  const box = demoSandbox();
  fakesUnderHome(box);
  box.writeConfig(WORLD_CONFIG);
  const calls: [string[], Record<string, string>][] = [
    [["run", "--tier", "light", "--cwd", box.repo, "Add a CONTRIBUTING.md stub"], {}],
    // codex-main's rollout reports 60 % of its 5-hour window: shown on the overview, below the warning line.
    [["run", "--tier", "heavy", "--cwd", box.repo, "Refactor the parser for speed"], { FAKE_CODEX_QUOTA_USED: "60" }],
    [["run", "--tier", "standard", "--cwd", box.repo, "Fix the flaky test"], { FAKE_CODEX_SCENARIO: "crash" }],
    [["consult", "--capability", "review", "Is a trie or a hash map better for prefix lookups?"], {}],
    [["consult", "--capability", "review", "Second look at the cache eviction?"], { FAKE_CODEX_SCENARIO: "wrong-model" }],
  ];
  const codes: number[] = [];
  for (const [args, env] of calls) codes.push((await orchestrate(args, { ...box.env, ...env })).code);
  await overMcp(box);
  const workflow = await workflowOverMcp(box);
  const asks = await asksOverMcp(box);
  return { box, codes, workflow, asks };
}

const ASK_KEY = ["sk", "proj", "D4shb0ardW0rldK3yN3v3rSt0red"].join("-");

/** Two asks through a real MCP client: the first deployment rate-limited, the second answers; then one filtered reply. */
async function asksOverMcp(box: Sandbox): Promise<AsksMade> {
  const provider = startFakeProvider({ keys: { openai: ASK_KEY } });
  const made: AsksMade = { capability: "quick", servedModel: "openai/gpt-world-backup", prompt: "Summarise the cache design in one line" };
  const dep = (model: string) => `{ model: openai/${model}, baseUrl: "${provider.openaiBase}", apiKeyEnv: DEMO_ASK_KEY }`;
  box.writeConfig(`${WORLD_CONFIG}ask:\n  cooldownSec: 0\n  capabilities:\n    quick:\n      deployments: [${dep("gpt-world")}, ${dep("gpt-world-backup")}]\n`);
  provider.script("gpt-world", { kind: "status", status: 429 }, { kind: "filter" });
  provider.script("gpt-world-backup", { kind: "ok", text: "An LRU map with a size cap." });
  const session = await connect({ ...box.env, DEMO_ASK_KEY: ASK_KEY }, { clientName: "orchestrate-tests" });
  try {
    await session.client.callTool({ name: "ask", arguments: { capability: made.capability, prompt: made.prompt, system: "Be brief." } });
    await session.client.callTool({ name: "ask", arguments: { capability: made.capability, prompt: "Say something the filter stops" } });
  } finally {
    await session.close();
    await provider.stop();
  }
  return made;
}
/** Through a real MCP client: one background route (the jobs page), and one review planned, approved by its token and run. */
async function overMcp(box: Sandbox): Promise<void> {
  const session = await connect(box.env, { clientName: "orchestrate-tests" });
  try {
    const planned = await session.client.callTool({
      name: "review",
      arguments: {
        goal: "Find bugs in the cache",
        mode: "standard",
        material: [{ text: "export const cache = new Map();\nexport function put(k, v) { cache.set(k, v); }\n", label: "cache.ts" }],
      },
    });
    const plan = planned.structuredContent as { review_id?: string; token?: string } | undefined;
    if (plan?.review_id && plan.token) await session.client.callTool({ name: "review_run", arguments: { review_id: plan.review_id, token: plan.token } });
    const reply = await session.client.callTool({
      name: "route",
      arguments: { prompt: "Write the changelog entry", cwd: box.repo, tier: "light", background: true },
    });
    const job = (reply.structuredContent as { job?: { id?: string } } | undefined)?.job?.id;
    if (job) await session.client.callTool({ name: "job_wait", arguments: { id: job, waitSec: 30 } });
  } finally {
    await session.close();
  }
}

type Reply = Record<string, unknown>;

async function call(session: ClientSession, name: string, args: Record<string, unknown>): Promise<Reply> {
  const reply = await session.client.callTool({ name, arguments: args });
  const data = reply.structuredContent;
  if (reply.isError || typeof data !== "object" || data === null) throw new Error(`${name} failed: ${JSON.stringify(reply.content)}`);
  return { ...data };
}

/** Plans a step and spends its token the way its executor takes it (the host records, an agent runs). */
async function step(session: ClientSession, wf: string, name: string, extra: Reply = {}): Promise<Reply> {
  const plan = await call(session, "workflow_plan_step", { workflow_id: wf, step: name, context: "README.md:\n# demo\n" });
  const tool = plan.executor === "host" ? "workflow_record_host_step" : "workflow_run_step";
  return call(session, tool, { workflow_id: wf, step_id: String(plan.step_id), token: String(plan.token), ...extra });
}

function git(repo: string, ...args: string[]): void {
  const out = spawnSync("git", args, {
    cwd: repo,
    encoding: "utf8",
    env: { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@example.invalid", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@example.invalid" },
  });
  if (out.status !== 0) throw new Error(`git ${args.join(" ")}: ${out.stderr}`);
}

/**
 * Seed 001's loop as a host drives it: codex-main implements in its worktree (an edit, a new file,
 * a deletion and an ignored file), the host applies and commits the patch, records a passing test,
 * and cheap reviews. A second workflow is cancelled, so the status filter has two to tell apart.
 */
async function workflowOverMcp(box: Sandbox): Promise<WorkflowMade> {
  writeFileSync(join(box.repo, "DELETE_ME.txt"), "to be deleted\n");
  git(box.repo, "add", "-A");
  git(box.repo, "commit", "-q", "-m", "fixture for the workflow");
  const session = await connect({ ...box.env, FAKE_CODEX_SCENARIO: "edits-then-ok", FAKE_MUTATION: "workflow-set" }, { clientName: "orchestrate-tests" });
  try {
    const wf = String((await call(session, "workflow_start", { goal: "Add a greeting to the README", workdir: box.repo })).workflow_id);
    for (const name of ["research", "plan", "author_execution_prompt"]) await step(session, wf, name, { text: `${name}: done by the host` });
    const implemented = await step(session, wf, "implement");
    const patch = String(field(implemented.result, "patch") ?? "");
    const file = join(box.root, "step.patch");
    writeFileSync(file, patch);
    git(box.repo, "apply", "--index", file);
    git(box.repo, "commit", "-q", "-m", "apply the workflow's patch");
    await step(session, wf, "apply_patch");
    await step(session, wf, "test", { test: { command: "bun test", exit_code: 0, status: "pass", output: TEST_OUTPUT, duration_ms: 1234 } });
    const reviewed = await step(session, wf, "review");
    const reviewId = String(field(reviewed.result, "review_id") ?? "");
    const cancelled = String((await call(session, "workflow_start", { goal: "A second thought, dropped", workdir: box.repo })).workflow_id);
    await call(session, "workflow_cancel", { workflow_id: cancelled });
    return { id: wf, cancelled, patch, reviewId, testOutput: TEST_OUTPUT };
  } finally {
    await session.close();
  }
}

function field(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null && key in value ? Object.entries(value).find(([k]) => k === key)?.[1] : undefined;
}

export interface DashboardProcess {
  url: string;
  origin: string;
  port: number;
  token: string;
  stderr: () => string;
  stop(): Promise<void>;
}

/** `orchestrate dashboard --port 0 …` as its own process; resolves once it printed its URL. */
export async function startDashboardProcess(env: Record<string, string>, extra: string[] = []): Promise<DashboardProcess> {
  const proc = Bun.spawn([BUN, MAIN, "dashboard", "--port", "0", ...extra], { env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  let err = "";
  void (async () => {
    for await (const chunk of proc.stderr) err += new TextDecoder().decode(chunk);
  })();
  const reader = proc.stdout.getReader();
  let out = "";
  while (!out.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`dashboard exited before printing its URL: ${err}`);
    out += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  const url = out.split("\n")[0]?.trim() ?? "";
  const parsed = new URL(url);
  return {
    url,
    origin: parsed.origin,
    port: Number(parsed.port),
    token: parsed.searchParams.get("token") ?? "",
    stderr: () => err,
    stop: async () => {
      proc.kill("SIGTERM");
      await proc.exited;
    },
  };
}
