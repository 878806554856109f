/**
 * Fidelity of fakes/codex: spawned with the adapter's own invocation, parsed with the adapter,
 * classified, and compared with the real 0.171.0 captures in test/fixtures/codex.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { codexAdapter } from "../../src/backends/codex/index.ts";
import { codexModelFromRollout } from "../../src/backends/codex/machine.ts";
import { foldEvents } from "../../src/backends/fold.ts";
import type { AgentEvent, ExitOutcome, FailureClass, RunRequest } from "../../src/backends/contract.ts";
import { alive, eventKinds, outcomeOf, transcriptKinds } from "../helpers/fake-harness.ts";

const REPO = join(import.meta.dir, "..", "..");
const FAKE = join(REPO, "fakes", "codex");
// The fakes start with `#!/usr/bin/env bun`; bun comes from the npm devDependency.
const PATH = `${join(REPO, "node_modules", ".bin")}:${dirname(process.execPath)}:${process.env.PATH ?? ""}`;
const FIXTURES = join(import.meta.dir, "..", "fixtures", "codex");
const ROOT = mkdtempSync(join(tmpdir(), "fake-codex-"));
afterAll(() => rmSync(ROOT, { recursive: true, force: true }));

interface Sandbox {
  dir: string;
  home: string;
  codexHome: string;
  repo: string;
  scratch: string;
  records: string;
}

function sandbox(): Sandbox {
  const dir = mkdtempSync(join(ROOT, "t-"));
  const s = {
    dir,
    home: join(dir, "home"),
    codexHome: join(dir, "home", ".codex"),
    repo: join(dir, "repo"),
    scratch: join(dir, "scratch"),
    records: join(dir, "records"),
  };
  for (const d of [s.codexHome, s.repo, s.scratch]) mkdirSync(d, { recursive: true });
  Bun.spawnSync(["git", "init", "-q", s.repo]);
  // Signed in the way `codex login --with-api-key` leaves it (research §2.3).
  writeFileSync(join(s.codexHome, "auth.json"), JSON.stringify({ auth_mode: "apikey", OPENAI_API_KEY: "sk-dummy-1234567890" }));
  return s;
}

/** The recorded retry schedules, 50× faster: the sequence and the first signal stay. */
const FAST = "0.02";

function envFor(s: Sandbox, scenario: string, extra: Record<string, string> = {}): Record<string, string> {
  return { PATH, HOME: s.home, CODEX_HOME: s.codexHome, FAKE_RECORD_DIR: s.records, FAKE_CODEX_SCENARIO: scenario, FAKE_RETRY_SCALE: FAST, ...extra };
}

interface Ran {
  outcome: ExitOutcome;
  events: AgentEvent[];
  stdout: string;
  stderr: string;
  records: Record<string, unknown>[];
}

function records(s: Sandbox): Record<string, unknown>[] {
  if (!existsSync(s.records)) return [];
  return readdirSync(s.records)
    .filter((f) => f.startsWith("codex-"))
    .map((f) => JSON.parse(readFileSync(join(s.records, f), "utf8")) as Record<string, unknown>);
}

/** stdin as the runner gives it: the invocation's text written and closed, or no pipe at all. */
const stdinOf = (text: string | undefined) => (text === undefined ? "ignore" : new TextEncoder().encode(text));

async function run(s: Sandbox, req: RunRequest, scenario: string, extra: Record<string, string> = {}, args?: string[]): Promise<Ran> {
  const inv = codexAdapter.invocation(req);
  const proc = Bun.spawn([FAKE, ...(args ?? inv.args)], {
    cwd: req.cwd,
    env: envFor(s, scenario, extra),
    stdin: args ? "ignore" : stdinOf(inv.stdin),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  await proc.exited;
  const outcome = outcomeOf(codexAdapter, stdout, stderr, proc.signalCode ? null : proc.exitCode, proc.signalCode ? String(proc.signalCode) : null);
  return { outcome, events: outcome.events, stdout, stderr, records: records(s) };
}

/** Each stdout line with the ms since spawn it arrived at: the retry schedule as a supervisor sees it. */
async function timed(s: Sandbox, req: RunRequest, scenario: string, extra: Record<string, string> = {}): Promise<{ at: number; line: string }[]> {
  const inv = codexAdapter.invocation(req);
  const started = performance.now();
  const proc = Bun.spawn([FAKE, ...inv.args], { cwd: req.cwd, env: envFor(s, scenario, extra), stdin: stdinOf(inv.stdin), stdout: "pipe", stderr: "ignore" });
  const out: { at: number; line: string }[] = [];
  let buffered = "";
  for await (const chunk of proc.stdout) {
    buffered += new TextDecoder().decode(chunk);
    const lines = buffered.split("\n");
    buffered = lines.pop() ?? "";
    for (const line of lines) if (line) out.push({ at: performance.now() - started, line });
  }
  await proc.exited;
  return out;
}

/** Starts the fake in its own group and returns once `until` holds for the lines seen so far. */
async function runUntil(s: Sandbox, req: RunRequest, scenario: string, until: (lines: string[]) => boolean) {
  const inv = codexAdapter.invocation(req);
  const proc = Bun.spawn([FAKE, ...inv.args], {
    cwd: req.cwd,
    env: envFor(s, scenario),
    stdin: stdinOf(inv.stdin),
    stdout: "pipe",
    stderr: "pipe",
    detached: true,
  });
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

describe("fake codex scenarios through the adapter", () => {
  const table: [string, FailureClass | undefined, string | undefined][] = [
    ["ok", undefined, "codex-fake-gpt55-basic"],
    ["auth-fail", "auth", "codex-fake-noauth-openai_base_url"],
    ["rate-limit", "capacity", "codex-fake-fail-429"],
    ["overload", "capacity", "codex-fake-fail-OVERLOADED"],
    ["bad-model", "task_failed", undefined],
    ["empty", "empty_answer", undefined],
    ["bad-json", "bad_output", undefined],
    ["edits-then-ok", undefined, "codex-fake-patch-workspace-write"],
    ["edits-then-fails", "capacity", undefined],
  ];
  for (const [scenario, expected, real] of table) {
    test(`${scenario} → ${String(expected)}${real ? ` with the event sequence of ${real}` : ""}`, async () => {
      const s = sandbox();
      const r = await run(s, route(s, { model: "gpt-5.5" }), scenario);
      expect(codexAdapter.classify(r.outcome)).toBe(expected);
      if (real) expect(kinds(r.events)).toEqual(realKinds(real));
      expect(r.records[0]?.argv).toEqual(codexAdapter.invocation(route(s, { model: "gpt-5.5" })).args);
    });
  }

  test("edits touch the tree before failing", async () => {
    const s = sandbox();
    await run(s, route(s), "edits-then-fails");
    expect(existsSync(join(s.repo, "FAKE_EDIT.txt"))).toBe(true);
  });

  test("crash: partial output, killed by a signal, no final record → task_failed", async () => {
    const s = sandbox();
    const r = await run(s, route(s), "crash");
    expect(r.outcome.signal).toBe("SIGSEGV");
    expect(r.events.some((e) => e.kind === "final")).toBe(false);
    expect(codexAdapter.classify(r.outcome)).toBe("task_failed");
  });

  test("slow, long: progress events (thinking, npm test, file change) without touching disk", async () => {
    const s = sandbox();
    expect(codexAdapter.classify((await run(s, route(s), "slow", { FAKE_DELAY_MS: "30" })).outcome)).toBeUndefined();
    const long = await run(s, route(s), "long", { FAKE_EVENTS: "6", FAKE_EVENT_GAP_MS: "1" });
    expect(codexAdapter.classify(long.outcome)).toBeUndefined();
    expect(long.events).toContainEqual(expect.objectContaining({ kind: "tool", name: "shell", detail: "/bin/bash -lc 'npm test'" }));
    expect(kinds(long.events)).toEqual(expect.arrayContaining(["thinking", "file_change"]));
    expect(readdirSync(s.repo).filter((f) => f.startsWith("FAKE_LONG"))).toEqual([]);
  });

  test("budget reports huge usage; action reports acting tools in answer mode", async () => {
    const s = sandbox();
    expect(foldEvents((await run(s, route(s), "budget")).events).usage.inputTokens).toBe(5_000_000);
    const acted = await run(s, answer(s), "action");
    expect(foldEvents(acted.events).acted).toBe(true);
    expect(existsSync(join(s.scratch, "ACTION.txt"))).toBe(false);
  });

  test("answers: JSON envelope with --output-schema or the marker, prose when asked", async () => {
    const s = sandbox();
    const schema = join(s.dir, "schema.json");
    await Bun.write(schema, '{"type":"object"}');
    const json = await run(s, answer(s, { outputSchemaPath: schema }), "ok");
    expect(JSON.parse(foldEvents(json.events).text)).toEqual({
      answer: "PONG-FROM-FAKE",
      assumptions: [],
      uncertainties: [],
      follow_up_questions: [],
      sources: [],
    });
    const marker = await run(s, answer(s, { prompt: "ORCHESTRATE_JSON_ENVELOPE say" }), "json-answer");
    expect(JSON.parse(foldEvents(marker.events).text).answer).toBe("PONG-FROM-FAKE");
    const prose = await run(s, answer(s, { outputSchemaPath: schema }), "prose-answer");
    expect(foldEvents(prose.events).text).toBe("PONG-FROM-FAKE");
  });

  test("wrong-model: only the reroute notice names the model that served; the rollout records the requested one", async () => {
    const s = sandbox();
    const r = await run(s, route(s, { model: "gpt-5.5" }), "wrong-model");
    expect(foldEvents(r.events).models).toEqual(["gpt-5.1-codex-mini"]);
    const day =
      readdirSync(join(s.codexHome, "sessions"), { recursive: true })
        .map(String)
        .find((f) => f.endsWith(".jsonl")) ?? "";
    expect(codexModelFromRollout(readFileSync(join(s.codexHome, "sessions", day), "utf8"))).toBe("gpt-5.5");
  });
});

describe("fake codex kill paths", () => {
  test("hang: a SIGTERM-ignoring grandchild; killing the group ends both", async () => {
    const s = sandbox();
    const { proc } = await runUntil(s, route(s), "hang", (lines) => lines.length >= 2);
    while (!existsSync(join(s.records, "hangers"))) await Bun.sleep(10);
    const grandchild = Number(readFileSync(join(s.records, "grandchildren"), "utf8").trim());
    process.kill(-proc.pid, "SIGKILL");
    await proc.exited;
    for (let i = 0; i < 100 && alive(grandchild); i++) await Bun.sleep(10);
    expect(alive(grandchild)).toBe(false);
  });

  test("silent: thread.started then nothing; SIGTERM ends it", async () => {
    const s = sandbox();
    const { proc, lines } = await runUntil(s, route(s), "silent", (l) => l.length >= 2);
    expect(kinds(lines.flatMap((l) => codexAdapter.parse(l)))).toEqual(["session"]);
    process.kill(-proc.pid, "SIGTERM");
    await proc.exited;
    expect(proc.signalCode).toBe("SIGTERM");
  });

  test("transport: loops on 'waiting for network' like the real CLI; classified transport once killed", async () => {
    const s = sandbox();
    const { proc, lines } = await runUntil(s, route(s), "transport", (l) => l.some((x) => x.includes("waiting for network")));
    process.kill(-proc.pid, "SIGTERM");
    await proc.exited;
    const events = lines.flatMap((l) => codexAdapter.parse(l));
    expect(codexAdapter.classify({ exitCode: null, signal: "SIGTERM", events, stderrTail: "", rawStdoutTail: "" })).toBe("transport");
    expect(kinds(events)).toEqual(realKinds("codex-exec-noauth-json").slice(0, kinds(events).length));
  });
});

describe("fake codex CLI grammar and sessions", () => {
  test("records argv, the prompt read from stdin (`-`), and cwd", async () => {
    const s = sandbox();
    const r = await run(s, route(s), "ok");
    expect(r.records[0]).toMatchObject({ stdin: "Say PONG", prompt: "Say PONG", stdinIsTTY: false, cwd: s.repo });
    expect(r.records[0]?.argv).toEqual(["exec", ...codexAdapter.invocation(route(s)).args.slice(1)]);
  });

  test("a 300 KiB prompt reaches the model whole through stdin; argv never holds it", async () => {
    const s = sandbox();
    const prompt = `${"x".repeat(300 * 1024)} END`;
    const r = await run(s, route(s, { prompt }), "ok");
    expect(codexAdapter.classify(r.outcome)).toBeUndefined();
    expect(r.records[0]?.prompt).toBe(prompt);
    expect((r.records[0]?.argv as string[]).join(" ")).not.toContain("xxxx");
  });

  test("route mode refuses a non-git cwd with the real text; answer mode skips the check", async () => {
    const s = sandbox();
    const refused = await run(s, route(s, { cwd: s.scratch }), "ok");
    expect(refused.outcome.exitCode).toBe(1);
    expect(refused.stderr).toContain("Not inside a trusted directory and --skip-git-repo-check was not specified.");
    expect(codexAdapter.classify(refused.outcome)).toBe("task_failed");
    expect(codexAdapter.classify((await run(s, answer(s), "ok")).outcome)).toBeUndefined();
  });

  test("resume keeps the thread id and cumulative usage; an unknown id fails like the real CLI", async () => {
    const s = sandbox();
    const first = foldEvents((await run(s, answer(s), "ok")).events);
    const again = await run(s, answer(s, { resumeSessionId: first.sessionId! }), "ok");
    expect(foldEvents(again.events)).toMatchObject({ sessionId: first.sessionId, usage: { inputTokens: 84, outputTokens: 14 } });
    const bogus = await run(s, answer(s, { resumeSessionId: "00000000-0000-0000-0000-000000000000" }), "ok");
    expect(bogus.outcome.exitCode).toBe(1);
    expect(bogus.stderr).toContain("no rollout found for thread id 00000000-0000-0000-0000-000000000000 (code -32600)");
  });

  test("exec resume rejects --sandbox the way clap does; --ephemeral writes no rollout", async () => {
    const s = sandbox();
    const bad = await run(s, route(s), "ok", {}, ["exec", "--json", "resume", "-s", "read-only", "x", "--", "hi"]);
    expect(bad.outcome.exitCode).toBe(2);
    expect(bad.stderr).toContain("error: unexpected argument '-s' found");
    await run(s, route(s), "ok", {}, ["exec", "--json", "--ephemeral", "--", "hi"]);
    expect(existsSync(join(s.codexHome, "sessions"))).toBe(false);
  });

  test("version, help (with a dropped flag) and login status", async () => {
    const s = sandbox();
    expect((await run(s, route(s), "ok", {}, ["--version"])).stdout.trim()).toBe("codex-cli 0.171.0");
    const helpText = (await run(s, route(s), "ok", {}, codexAdapter.probes.help)).stdout;
    expect(helpText).toContain("--output-schema <FILE>");
    const dropped = (await run(s, route(s), "ok", { FAKE_HELP_DROP_FLAG: "--output-schema" }, codexAdapter.probes.help)).stdout;
    expect(dropped).not.toContain("--output-schema");
    expect(dropped).toContain("--skip-git-repo-check");
    const auth = codexAdapter.probes.auth ?? [];
    const signedIn = await run(s, route(s), "ok", {}, auth);
    expect(signedIn.outcome.exitCode).toBe(0);
    expect(signedIn.stderr).toContain("API key configured - sk-dummy***67890\nAuthentication is checked when you send a request.");
    const out = await run(s, route(s), "auth-fail", {}, auth);
    expect(out.outcome.exitCode).toBe(1);
    expect(out.stderr.trim().split("\n").at(-1)).toBe("Not logged in");
  });
});

/** Divergences from the old, kinder fake; each of these passed against it when it should not have. */
describe("fake codex is as strict as 0.171.0", () => {
  test("login status counts auth.json only: exit 1 with an API key in the environment (research §2.3)", async () => {
    const s = sandbox();
    rmSync(join(s.codexHome, "auth.json"));
    const out = await run(s, route(s), "ok", { OPENAI_API_KEY: "sk-env", CODEX_API_KEY: "sk-env" }, ["login", "status"]);
    expect(out.outcome.exitCode).toBe(1);
    expect(out.stderr.trim().split("\n").at(-1)).toBe("Not logged in");
    // …while exec does use the environment key.
    expect(codexAdapter.classify((await run(s, route(s), "ok", { OPENAI_API_KEY: "sk-env" })).outcome)).toBeUndefined();
  });

  test("no credentials at all: the request goes out without an auth header and the 401 is retried 5 times", async () => {
    const s = sandbox();
    rmSync(join(s.codexHome, "auth.json"));
    const r = await run(s, route(s, { model: "gpt-5.5" }), "ok");
    expect(kinds(r.events)).toEqual(realKinds("codex-fake-noauth-openai_base_url"));
    expect(r.outcome.exitCode).toBe(1);
    expect(codexAdapter.classify(r.outcome)).toBe("auth");
  });

  test("a custom provider's env_key must be set: Missing environment variable, at once", async () => {
    const s = sandbox();
    writeFileSync(
      join(s.codexHome, "config.toml"),
      'model_provider = "fake"\n[model_providers.fake]\nname = "fake"\nbase_url = "http://127.0.0.1:9/v1"\nenv_key = "FAKE_API_KEY"\nwire_api = "responses"\n',
    );
    const r = await run(s, route(s), "ok");
    expect(r.stdout.split("\n").filter(Boolean).slice(-2)).toEqual([
      '{"type":"error","message":"Missing environment variable: `FAKE_API_KEY`."}',
      '{"type":"turn.failed","error":{"message":"Missing environment variable: `FAKE_API_KEY`."}}',
    ]);
    expect(codexAdapter.classify((await run(s, route(s), "ok", { FAKE_API_KEY: "dummy" })).outcome)).toBeUndefined();
  });

  test("an unknown -c key is reported twice as an error item before turn.started, and the run goes on (codex-fake-unknown-config-key)", async () => {
    const s = sandbox();
    const args = ["exec", "--json", "-m", "gpt-5.5", "-c", "tools.update_plan={max_payload_bytes=1}", "--", "Say PONG"];
    const r = await run(s, route(s), "ok", {}, args);
    const notice =
      "Codex is ignoring 1 unrecognized configuration setting. Check for typos or deprecated settings.\n  session-flags: `tools.update_plan.max_payload_bytes` is ignored.";
    const lines = r.stdout
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { type: string; item?: { type: string; message: string } });
    expect(lines.slice(1, 4).map((l) => l.item?.message ?? l.type)).toEqual([notice, notice, "turn.started"]);
    expect(r.outcome.exitCode).toBe(0);
    // The keys orchestrate itself passes are known ones.
    const ours = await run(s, route(s, { configuredProvider: "fake", disableMcpServers: ["boom"] }), "ok", {}, undefined);
    expect(ours.stdout).not.toContain("unrecognized configuration");
  });

  test("the built-in provider's retry keys are fatal, with the recorded text", async () => {
    const s = sandbox();
    const r = await run(s, route(s), "ok", {}, ["exec", "--json", "-c", "model_providers.openai.stream_max_retries=0", "--", "hi"]);
    expect(r.outcome.exitCode).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(
      "Error loading config.toml: model_providers contains reserved built-in provider IDs: `openai`. Built-in providers cannot be overridden. Rename your custom provider (for example, `openai-custom`).",
    );
  });

  test("429: Reconnecting at once, then one retry-after apart (1.03 s recorded), 5 of them, then turn.failed", async () => {
    const s = sandbox();
    const lines = await timed(s, route(s), "rate-limit", { FAKE_RETRY_SCALE: "0.1" });
    const retries = lines.filter((l) => l.line.includes("Reconnecting"));
    expect(retries.map((l) => JSON.parse(l.line).message)).toEqual(
      [1, 2, 3, 4, 5].map((n) => `Reconnecting... ${n}/5 (exceeded retry limit, last status: 429 Too Many Requests)`),
    );
    const gaps = retries.slice(1).map((l, i) => l.at - (retries[i]?.at ?? 0));
    for (const gap of gaps) expect(gap).toBeGreaterThan(80);
    expect(lines.at(-1)?.line).toBe('{"type":"turn.failed","error":{"message":"exceeded retry limit, last status: 429 Too Many Requests"}}');
  });

  test("429 without a retry-after is not retried at all (codex-fake-fail-429-natural-backoff)", async () => {
    const s = sandbox();
    const r = await run(s, route(s), "rate-limit", { FAKE_RETRY_AFTER: "" });
    expect(kinds(r.events)).toEqual(realKinds("codex-fake-fail-429-natural-backoff"));
  });

  test("503: the HTTP layer retries silently first (recorded: first line at 3.45 s), then 5 announced stream retries", async () => {
    const s = sandbox();
    const plain = await timed(s, route(s), "overload", { FAKE_RETRY_SCALE: "0.1" });
    const first = plain.find((l) => l.line.includes("Reconnecting"));
    // 0.2 + 0.4 + 0.8 + 1.6 s of silent tries, scaled by 0.1.
    expect(first?.at ?? 0).toBeGreaterThan(290);
    expect(plain.filter((l) => l.line.includes("Reconnecting"))).toHaveLength(5);
    expect(plain.at(-1)?.line).toContain("turn.failed");
  });

  test("the caps of a configured custom provider: one announced retry, then codex's own turn.failed", async () => {
    const s = sandbox();
    writeFileSync(
      join(s.codexHome, "config.toml"),
      'model_provider = "fake"\n[model_providers.fake]\nname = "fake"\nbase_url = "http://127.0.0.1:9/v1"\nenv_key = "FAKE_API_KEY"\nwire_api = "responses"\n',
    );
    const lines = await timed(s, route(s, { configuredProvider: "fake" }), "overload", { FAKE_RETRY_SCALE: "1", FAKE_API_KEY: "k" });
    const retries = lines.filter((l) => l.line.includes("Reconnecting"));
    expect(retries.map((l) => JSON.parse(l.line).message)).toEqual([
      "Reconnecting... 1/1 (unexpected status 503 Service Unavailable: The server is overloaded. Please try again later., url: http://127.0.0.1:9/v1/responses)",
    ]);
    // No silent HTTP tries: announced at once, over within a second (recorded both=0: 0.47 s).
    expect(lines.at(-1)?.at ?? 9999).toBeLessThan(1500);
    expect(lines.at(-1)?.line).toContain("turn.failed");
  });

  test("transient: the same first line as a persistent 429, then the answer, exit 0 (transient-codex-ratelimit)", async () => {
    const s = sandbox();
    const r = await run(s, route(s), "transient");
    expect(kinds(r.events)).toEqual(["session", "retry", "text", "usage", "final"]);
    expect(r.events[1]).toEqual({
      kind: "retry",
      message: "Reconnecting... 1/5 (exceeded retry limit, last status: 429 Too Many Requests)",
      failure: "capacity",
    });
    expect(codexAdapter.classify(r.outcome)).toBeUndefined();
    const overload = await run(s, route(s), "transient-overload");
    // One 503 is absorbed by the silent HTTP layer: no line at all (transient-codex-overload).
    expect(kinds(overload.events)).toEqual(["session", "text", "usage", "final"]);
  });

  test("read-only sandbox: a patch is rejected on stderr only, which the adapter reads as a refusal; workspace-write applies it", async () => {
    const s = sandbox();
    const blocked = await run(s, route(s, { options: { sandbox: "read-only" } }), "patch");
    expect(kinds(blocked.events)).toEqual(["session", "text", "usage", "final"]);
    expect(existsSync(join(s.repo, "PATCHED_BY_FAKE.txt"))).toBe(false);
    const refusals = blocked.stderr.split("\n").flatMap((l) => codexAdapter.parseStderr?.(l) ?? []);
    expect(refusals).toEqual([
      { kind: "refusal", tool: "apply_patch", message: "patch rejected: writing is blocked by read-only sandbox; rejected by user approval settings" },
    ]);
    const applied = await run(s, route(s), "patch");
    expect(existsSync(join(s.repo, "PATCHED_BY_FAKE.txt"))).toBe(true);
    expect(kinds(applied.events)).toContain("file_change");
    const touched = await run(s, route(s, { options: { sandbox: "read-only" } }), "touch");
    expect(kinds(touched.events)).toEqual(["session", "text", "usage", "final"]);
    expect(existsSync(join(s.repo, "TOUCHED_BY_FAKE.txt"))).toBe(false);
  });
});

describe("answer mode offers the model no command tool (issue 23 §7)", () => {
  test("a read command runs under read-only in route mode; in answer mode none runs at all and the answer comes back", async () => {
    const s = sandbox();
    const ran = () => (existsSync(join(s.records, "commands-ran")) ? readFileSync(join(s.records, "commands-ran"), "utf8") : "");
    const routed = await run(s, route(s, { options: { sandbox: "read-only" } }), "reads");
    expect(kinds(routed.events)).toContain("tool");
    expect(ran()).toBe("cat README.md\n");
    rmSync(join(s.records, "commands-ran"));
    const answered = await run(s, answer(s), "reads");
    expect(kinds(answered.events)).toEqual(["session", "text", "usage", "final"]);
    expect(ran()).toBe("");
    const argv = answered.records.map((r) => r.argv).find((a) => Array.isArray(a) && a.includes("--ignore-user-config"));
    for (const key of ['approval_policy="never"', "features.shell_tool=false", "features.unified_exec=false", "features.multi_agent=false"])
      expect(argv).toContain(key);
  });
});

const kinds = eventKinds;
const realKinds = (name: string): string[] => transcriptKinds(codexAdapter, FIXTURES, name);
