/**
 * Fidelity of fakes/claude: spawned with the adapter's own invocation (prompt on stdin, then
 * closed), parsed with the adapter, classified, and compared with the real 2.1.332 captures.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { claudeAdapter } from "../../src/backends/claude/index.ts";
import { foldEvents } from "../../src/backends/fold.ts";
import type { AgentEvent, ExitOutcome, FailureClass, RunRequest } from "../../src/backends/contract.ts";
import { childEnv } from "../../src/process/env.ts";
import { alive, eventKinds, outcomeOf, transcriptKinds } from "../helpers/fake-harness.ts";

const REPO = join(import.meta.dir, "..", "..");
const FAKE = join(REPO, "fakes", "claude");
const FIXTURES = join(import.meta.dir, "..", "fixtures", "claude");
// The fakes start with `#!/usr/bin/env bun`; bun comes from the npm devDependency.
const PATH = `${join(REPO, "node_modules", ".bin")}:${dirname(process.execPath)}:${process.env.PATH ?? ""}`;
const ROOT = mkdtempSync(join(tmpdir(), "fake-claude-"));
afterAll(() => rmSync(ROOT, { recursive: true, force: true }));

interface Sandbox {
  dir: string;
  home: string;
  repo: string;
  scratch: string;
  records: string;
}

function sandbox(): Sandbox {
  const dir = mkdtempSync(join(ROOT, "t-"));
  const s = { dir, home: join(dir, "home"), repo: join(dir, "repo"), scratch: join(dir, "scratch"), records: join(dir, "records") };
  for (const d of [s.home, s.repo, s.scratch]) mkdirSync(d, { recursive: true });
  // Signed in the way `/login` leaves it (research cli-codex-claude.md §3.3).
  mkdirSync(join(s.home, ".claude"), { recursive: true });
  writeFileSync(join(s.home, ".claude", ".credentials.json"), JSON.stringify({ claudeAiOauth: { accessToken: "sk-ant-oat-dummy" } }));
  return s;
}

/** The recorded retry schedules, 50× faster: the sequence and the first signal stay. */
const FAST = "0.02";

interface Ran {
  outcome: ExitOutcome;
  events: AgentEvent[];
  stdout: string;
  stderr: string;
  record: Record<string, unknown> | undefined;
}

function lastRecord(s: Sandbox): Record<string, unknown> | undefined {
  if (!existsSync(s.records)) return undefined;
  const file = readdirSync(s.records)
    .filter((f) => f.startsWith("claude-"))
    .at(-1);
  return file ? (JSON.parse(readFileSync(join(s.records, file), "utf8")) as Record<string, unknown>) : undefined;
}

/**
 * The child's env the way process/env.ts builds it: what it inherits (here `inherited`, e.g. an
 * IS_SANDBOX of the machine), then the adapter's additions and removals, then the test's overrides.
 */
async function run(
  s: Sandbox,
  req: RunRequest,
  scenario: string,
  extra: Record<string, string> = {},
  args?: string[],
  inherited: Record<string, string> = {},
): Promise<Ran> {
  rmSync(s.records, { recursive: true, force: true });
  const inv = claudeAdapter.invocation(req);
  const env = childEnv(
    { PATH, HOME: s.home, FAKE_RECORD_DIR: s.records, FAKE_CLAUDE_SCENARIO: scenario, FAKE_RETRY_SCALE: FAST, ...inherited },
    { ...inv.env, ...extra },
  );
  const proc = Bun.spawn([FAKE, ...(args ?? inv.args)], { cwd: req.cwd, env, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
  proc.stdin.write(inv.stdin ?? "");
  await proc.stdin.end();
  const [stdout, stderr] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  await proc.exited;
  const outcome = outcomeOf(claudeAdapter, stdout, stderr, proc.signalCode ? null : proc.exitCode, proc.signalCode ? String(proc.signalCode) : null);
  return { outcome, events: outcome.events, stdout, stderr, record: lastRecord(s) };
}

async function runUntil(s: Sandbox, req: RunRequest, scenario: string, until: (lines: string[]) => boolean) {
  const inv = claudeAdapter.invocation(req);
  const env = childEnv({ PATH, HOME: s.home, FAKE_RECORD_DIR: s.records, FAKE_CLAUDE_SCENARIO: scenario, FAKE_RETRY_SCALE: FAST }, inv.env);
  const proc = Bun.spawn([FAKE, ...inv.args], { cwd: req.cwd, env, stdin: "pipe", stdout: "pipe", stderr: "pipe", detached: true });
  proc.stdin.write(inv.stdin ?? "");
  await proc.stdin.end();
  const reader = proc.stdout.getReader();
  let text = "";
  while (!until(text.split("\n").filter((l) => l !== ""))) {
    const chunk = await reader.read();
    if (chunk.done) break;
    text += new TextDecoder().decode(chunk.value);
  }
  reader.releaseLock();
  return { proc, lines: text.split("\n").filter((l) => l !== "") };
}

const route = (s: Sandbox, extra: Partial<RunRequest> = {}): RunRequest => ({ mode: "route", prompt: "Say PONG", cwd: s.repo, ...extra });
const answer = (s: Sandbox, extra: Partial<RunRequest> = {}): RunRequest => ({ mode: "answer", prompt: "Say PONG", cwd: s.scratch, ...extra });
// The captures were taken with retries off; the adapter's own setting adds one api_retry line.
const NO_RETRY = { CLAUDE_CODE_MAX_RETRIES: "0" };

describe("fake claude scenarios through the adapter", () => {
  const table: [string, FailureClass | undefined, string | undefined][] = [
    ["ok", undefined, "claude-fake-basic-stream-json"],
    ["auth-fail", "auth", "claude-p-noauth-stream-json"],
    ["rate-limit", "capacity", "claude-fake-fail-429-maxretries0"],
    ["overload", "capacity", "claude-fake-fail-529-maxretries0"],
    ["transport", "transport", "claude-p-dummykey-nonetwork-maxretries0"],
    ["bad-model", "task_failed", "claude-fake-fail-404"],
    ["edits-then-ok", undefined, "claude-fake-write-acceptEdits"],
    ["edits-then-fails", "capacity", undefined],
    ["empty", "empty_answer", undefined],
    ["bad-json", "bad_output", undefined],
  ];
  for (const [scenario, expected, real] of table) {
    test(`${scenario} → ${String(expected)}${real ? ` with the event sequence of ${real}` : ""}`, async () => {
      const s = sandbox();
      const r = await run(s, route(s), scenario, NO_RETRY);
      expect(claudeAdapter.classify(r.outcome)).toBe(expected);
      if (real) expect(kinds(r.events)).toEqual(realKinds(real));
      expect(r.record?.argv).toEqual(claudeAdapter.invocation(route(s)).args);
      expect(r.record?.stdin).toBe("Say PONG");
    });
  }

  test("the adapter's CLAUDE_CODE_MAX_RETRIES=1 gives exactly one api_retry before the failure", async () => {
    const s = sandbox();
    const r = await run(s, route(s), "rate-limit");
    expect(r.events.filter((e) => e.kind === "retry")).toEqual([
      { kind: "retry", message: "API retry 1/1 (429, rate_limit)", failure: "capacity", retryAfterSec: 1 },
    ]);
    expect(r.record?.env).toMatchObject({ CLAUDE_CODE_MAX_RETRIES: "1" });
  });

  test("edits touch the tree before failing", async () => {
    const s = sandbox();
    const r = await run(s, route(s), "edits-then-fails");
    expect(existsSync(join(s.repo, "FAKE_EDIT.txt"))).toBe(true);
    expect(foldEvents(r.events).acted).toBe(true);
  });

  test("crash: killed by a signal mid-line → task_failed", async () => {
    const s = sandbox();
    const r = await run(s, route(s), "crash");
    expect(r.outcome.signal).toBe("SIGSEGV");
    expect(claudeAdapter.classify(r.outcome)).toBe("task_failed");
  });

  test("slow and long: progress events without touching disk", async () => {
    const s = sandbox();
    expect(claudeAdapter.classify((await run(s, route(s), "slow", { FAKE_DELAY_MS: "30" })).outcome)).toBeUndefined();
    const long = await run(s, route(s), "long", { FAKE_EVENTS: "6", FAKE_EVENT_GAP_MS: "1" });
    expect(claudeAdapter.classify(long.outcome)).toBeUndefined();
    expect(long.events).toContainEqual(expect.objectContaining({ kind: "tool", name: "Bash", detail: "npm test", acts: true }));
    expect(kinds(long.events)).toEqual(expect.arrayContaining(["thinking", "file_change"]));
    expect(readdirSync(s.repo)).toEqual([]);
  });

  test("wrong-model, budget, action", async () => {
    const s = sandbox();
    const wrong = await run(s, route(s, { model: "opus" }), "wrong-model");
    // init echoes the requested opus; only what answered counts as evidence.
    expect(foldEvents(wrong.events).models).toEqual(["claude-sonnet-5-5"]);
    const budget = foldEvents((await run(s, route(s), "budget")).events).usage;
    expect(budget.inputTokens).toBeGreaterThan(1_000_000);
    expect(budget.costUsd).toBeGreaterThan(10);
    const acted = await run(s, answer(s), "action");
    expect(foldEvents(acted.events).acted).toBe(true);
  });

  test("answers: --json-schema gives structured_output via StructuredOutput; marker gives JSON text; prose-answer stays prose", async () => {
    const s = sandbox();
    const schema = '{"type":"object","properties":{"answer":{"type":"string"}},"required":["answer"]}';
    const structured = foldEvents((await run(s, answer(s, { outputSchema: schema }), "ok")).events);
    expect(structured.structured).toMatchObject({ answer: "PONG-FROM-FAKE", sources: [] });
    expect(structured.acted).toBe(false);
    const marker = foldEvents((await run(s, answer(s, { prompt: "ORCHESTRATE_JSON_ENVELOPE go" }), "ok")).events);
    expect(JSON.parse(marker.text).follow_up_questions).toEqual([]);
    const prose = foldEvents((await run(s, answer(s, { outputSchema: schema }), "prose-answer")).events);
    expect(prose.structured).toBeUndefined();
    expect(prose.text).toBe("PONG-FROM-FAKE");
  });

  test("answer mode: init reports no tools and dontAsk", async () => {
    const s = sandbox();
    const r = await run(s, answer(s), "ok");
    const init = r.stdout
      .split("\n")
      .map((l) => (l ? (JSON.parse(l) as Record<string, unknown>) : {}))
      .find((o) => o.subtype === "init");
    expect(init).toMatchObject({ tools: [], permissionMode: "dontAsk", mcp_servers: [] });
  });
});

describe("fake claude kill paths", () => {
  test("hang: killing the group ends the SIGTERM-ignoring grandchild too", async () => {
    const s = sandbox();
    const { proc } = await runUntil(s, route(s), "hang", (l) => l.length >= 1);
    while (!existsSync(join(s.records, "hangers"))) await Bun.sleep(10);
    const grandchild = Number(readFileSync(join(s.records, "grandchildren"), "utf8").trim());
    process.kill(-proc.pid, "SIGKILL");
    await proc.exited;
    for (let i = 0; i < 100 && alive(grandchild); i++) await Bun.sleep(10);
    expect(alive(grandchild)).toBe(false);
  });

  test("silent: init then nothing; SIGTERM ends it", async () => {
    const s = sandbox();
    const { proc, lines } = await runUntil(s, route(s), "silent", (l) => l.length >= 1);
    expect(kinds(lines.flatMap((l) => claudeAdapter.parse(l)))).toEqual(["session", "model"]);
    process.kill(-proc.pid, "SIGTERM");
    await proc.exited;
    expect(proc.signalCode).toBe("SIGTERM");
  });
});

describe("fake claude CLI grammar and sessions", () => {
  test("bypassPermissions as root is refused like the real CLI (stdout empty) unless IS_SANDBOX=1", async () => {
    const s = sandbox();
    const req = route(s, { options: { permissionMode: "bypassPermissions" } });
    const refused = await run(s, req, "ok");
    if (process.getuid?.() === 0) {
      expect(refused.stdout).toBe("");
      expect(refused.stderr.trim()).toBe("--dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons");
      expect(claudeAdapter.classify(refused.outcome)).toBe("task_failed");
      expect(claudeAdapter.explain(refused.outcome)).toContain("IS_SANDBOX=1");
    }
    expect(claudeAdapter.classify((await run(s, req, "ok", { IS_SANDBOX: "1" })).outcome)).toBeUndefined();
  });

  test("stream-json without --verbose fails with the real message", async () => {
    const s = sandbox();
    const r = await run(s, route(s), "ok", {}, ["-p", "--output-format", "stream-json"]);
    expect(r.outcome.exitCode).toBe(1);
    expect(r.stderr.trim()).toBe("Error: When using --print, --output-format=stream-json requires --verbose");
  });

  test("resume keeps the session id and model; an unknown id fails like the real CLI", async () => {
    const s = sandbox();
    const first = foldEvents((await run(s, answer(s, { model: "sonnet" }), "ok")).events);
    expect(existsSync(join(s.home, ".claude", "projects", s.scratch.replaceAll("/", "-"), `${first.sessionId}.jsonl`))).toBe(true);
    const again = foldEvents((await run(s, answer(s, { resumeSessionId: first.sessionId! }), "ok")).events);
    expect(again).toMatchObject({ sessionId: first.sessionId, models: ["claude-sonnet-5-5"] });
    const bogus = await run(s, answer(s, { resumeSessionId: "11111111-2222-3333-4444-555555555555" }), "ok");
    expect(kinds(bogus.events)).toEqual(realKinds("claude-fake-resume-bogus"));
    expect(bogus.stderr.trim()).toBe("No conversation found with session ID: 11111111-2222-3333-4444-555555555555");
    expect(claudeAdapter.classify(bogus.outcome)).toBe("task_failed");
  });

  test("version, help with a dropped flag, auth status", async () => {
    const s = sandbox();
    expect((await run(s, route(s), "ok", {}, claudeAdapter.probes.version)).stdout.trim()).toBe("2.1.332 (Claude Code)");
    expect((await run(s, route(s), "ok", {}, claudeAdapter.probes.help)).stdout).toContain("--strict-mcp-config");
    const dropped = (await run(s, route(s), "ok", { FAKE_HELP_DROP_FLAG: "--strict-mcp-config" }, claudeAdapter.probes.help)).stdout;
    expect(dropped).not.toContain("--strict-mcp-config");
    expect(dropped).toContain("--setting-sources");
    const ok = await run(s, route(s), "ok", {}, claudeAdapter.probes.auth);
    expect(ok.outcome.exitCode).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ loggedIn: true });
    const no = await run(s, route(s), "auth-fail", {}, claudeAdapter.probes.auth);
    expect(no.outcome.exitCode).toBe(1);
    expect(JSON.parse(no.stdout)).toMatchObject({ loggedIn: false, authMethod: "none" });
  });
});

/** Divergences from the old, kinder fake; each of these passed against it when it should not have. */
describe("fake claude is as strict as 2.1.332 / 2.1.197", () => {
  test("no credentials anywhere: Not logged in, exit 1, no request; auth status loggedIn false", async () => {
    const s = sandbox();
    rmSync(join(s.home, ".claude", ".credentials.json"));
    const r = await run(s, route(s), "ok");
    expect(kinds(r.events)).toEqual(realKinds("claude-p-noauth-stream-json"));
    expect(r.outcome.exitCode).toBe(1);
    expect(claudeAdapter.classify(r.outcome)).toBe("auth");
    const status = await run(s, route(s), "ok", {}, claudeAdapter.probes.auth);
    expect(status.outcome.exitCode).toBe(1);
    expect(JSON.parse(status.stdout)).toMatchObject({ loggedIn: false, authMethod: "none" });
    // …and found where claude finds them: the API key variable.
    const keyed = await run(s, route(s), "ok", { ANTHROPIC_API_KEY: "sk-ant-dummy" });
    expect(claudeAdapter.classify(keyed.outcome)).toBeUndefined();
    expect(JSON.parse((await run(s, route(s), "ok", { ANTHROPIC_API_KEY: "sk-ant-dummy" }, claudeAdapter.probes.auth)).stdout)).toMatchObject({
      loggedIn: true,
      apiKeySource: "ANTHROPIC_API_KEY",
    });
  });

  test("429: one api_retry per failed request, a retry-after apart (recorded 1.02 s), then the final error", async () => {
    const s = sandbox();
    const started = performance.now();
    const r = await run(s, route(s), "rate-limit", { CLAUDE_CODE_MAX_RETRIES: "3", FAKE_RETRY_SCALE: "0.1" });
    const retries = r.stdout
      .split("\n")
      .filter((l) => l.includes('"api_retry"'))
      .map((l) => JSON.parse(l) as { attempt: number; retry_delay_ms: number; error_status: number });
    expect(retries.map((x) => [x.attempt, x.error_status])).toEqual([
      [1, 429],
      [2, 429],
      [3, 429],
    ]);
    // retry-after: 1 is the floor of every delay; three of them, scaled by 0.1, took real time.
    for (const x of retries) expect(x.retry_delay_ms).toBeGreaterThanOrEqual(1000);
    expect(performance.now() - started).toBeGreaterThan(300);
    expect(claudeAdapter.classify(r.outcome)).toBe("capacity");
  });

  test("a retry-after above 60 s is not retried at all (knobs/claude-ratelimit-ra61)", async () => {
    const s = sandbox();
    const r = await run(s, route(s), "rate-limit", { FAKE_RETRY_AFTER: "61" });
    expect(r.events.filter((e) => e.kind === "retry")).toEqual([]);
    expect(claudeAdapter.classify(r.outcome)).toBe("capacity");
  });

  test("transient: the same api_retry line, then the answer, exit 0 (transient-claude-ratelimit / -overload)", async () => {
    const s = sandbox();
    for (const scenario of ["transient", "transient-overload"]) {
      const r = await run(s, route(s), scenario);
      expect(kinds(r.events).filter((k) => k === "retry")).toEqual(["retry"]);
      expect(r.outcome.exitCode).toBe(0);
      expect(claudeAdapter.classify(r.outcome)).toBeUndefined();
    }
  });

  test("an inherited IS_SANDBOX turns off opus's own stop after three 529s; the adapter's env strips it", async () => {
    const s = sandbox();
    const opus = route(s, { model: "opus" });
    const allRetries = { CLAUDE_CODE_MAX_RETRIES: "10" };
    const stripped = await run(s, opus, "overload", allRetries, undefined, { IS_SANDBOX: "yes" });
    expect(stripped.record?.env).not.toHaveProperty("IS_SANDBOX");
    expect(kinds(stripped.events).filter((k) => k === "retry")).toHaveLength(2);
    expect(stripped.stdout).toContain('"api_error_status":null');
    expect(stripped.stdout).toContain("Repeated 529 Overloaded errors");
    expect(claudeAdapter.classify(stripped.outcome)).toBe("capacity");
    // Passed on (as a bypassPermissions route must), it retries all ten times.
    const kept = await run(
      s,
      route(s, { model: "opus", options: { permissionMode: "bypassPermissions" } }),
      "overload",
      { ...allRetries, FAKE_RETRY_SCALE: "0.001" },
      undefined,
      { IS_SANDBOX: "1" },
    );
    expect(kinds(kept.events).filter((k) => k === "retry")).toHaveLength(10);
  });

  test("--fallback-model switches model after three 529s, and the adapter reports the model that answered", async () => {
    const s = sandbox();
    const args = [...claudeAdapter.invocation(route(s, { model: "sonnet" })).args, "--fallback-model", "haiku"];
    const r = await run(s, route(s, { model: "sonnet" }), "overload", { CLAUDE_CODE_MAX_RETRIES: "10" }, args);
    expect(r.stdout).toContain('"subtype":"model_fallback"');
    expect(r.outcome.exitCode).toBe(0);
    expect(foldEvents(r.events).models).toEqual(["claude-haiku-5-5"]);
  });

  test("permissions per mode: a refused call ends success, exit 0, listed in permission_denials; the adapter reports it", async () => {
    const s = sandbox();
    // acceptEdits: shell edits inside the cwd go through, python writing a file needs approval.
    const appended = await run(s, route(s), "bash-write");
    expect(readFileSync(join(s.repo, "README.md"), "utf8")).toBe("edited-by-delegate\n");
    expect(foldEvents(appended.events).refusals).toEqual([]);
    const python = await run(s, route(s), "bash-python");
    expect(python.outcome.exitCode).toBe(0);
    expect(existsSync(join(s.repo, "py-created.txt"))).toBe(false);
    expect(claudeAdapter.classify(python.outcome)).toBeUndefined();
    expect(foldEvents(python.events).refusals).toEqual([
      { tool: "Bash", id: expect.any(String), detail: `python3 -c "open('py-created.txt','w').write('x')"`, message: "This command requires approval" },
    ]);
    const result = JSON.parse(python.stdout.trim().split("\n").at(-1) ?? "{}") as { permission_denials: { tool_name: string }[]; is_error: boolean };
    expect(result).toMatchObject({ is_error: false, permission_denials: [{ tool_name: "Bash" }] });
    // --allowedTools lets exactly what it names through.
    await run(s, route(s, { options: { allowedTools: ["Bash(python3:*)"] } }), "bash-python");
    expect(existsSync(join(s.repo, "py-created.txt"))).toBe(true);
    // Answer mode (dontAsk): no write of any kind.
    const write = await run(s, answer(s), "write");
    expect(existsSync(join(s.scratch, "written-by-delegate.txt"))).toBe(false);
    expect(foldEvents(write.events).refusals.map((r) => r.tool)).toEqual(["Write"]);
    // default mode (as a person's own settings may leave it): even `>>` is refused, `ls` runs.
    const defaults = await run(s, route(s), "bash-write", {}, ["-p", "--output-format", "stream-json", "--verbose", "--permission-mode", "default"]);
    expect(foldEvents(defaults.events).refusals).toHaveLength(1);
    expect(
      foldEvents((await run(s, route(s), "bash-read", {}, ["-p", "--output-format", "stream-json", "--verbose", "--permission-mode", "default"])).events)
        .refusals,
    ).toEqual([]);
  });

  test("a 300 KiB prompt arrives whole on stdin; argv never holds it", async () => {
    const s = sandbox();
    const prompt = `${"y".repeat(300 * 1024)} END`;
    const r = await run(s, route(s, { prompt }), "ok");
    expect(claudeAdapter.classify(r.outcome)).toBeUndefined();
    expect(r.record?.stdin).toBe(prompt);
    expect((r.record?.argv as string[]).join(" ")).not.toContain("yyyy");
  });
});

const kinds = eventKinds;
const realKinds = (name: string): string[] => transcriptKinds(claudeAdapter, FIXTURES, name);
