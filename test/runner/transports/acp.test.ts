/**
 * The ACP transport against fakes/acp (the SDK's agent side, in its own process group): one
 * attempt through runAttempt, as the services run it, for each quirk the transport must handle.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { acpAdapter } from "../../../src/backends/acp/index.ts";
import type { Adapter, RunRequest } from "../../../src/backends/contract.ts";
import { adapters } from "../../../src/backends/index.ts";
import type { AgentConfig } from "../../../src/config/types.ts";
import { liveCount } from "../../../src/process/live.ts";
import { runAttempt } from "../../../src/runner/attempt.ts";
import { minuteName } from "../../../src/runner/session-minute.ts";
import { BUN_DIR, FAKES_DIR, git } from "../../../fakes/lib/sandbox.ts";
import { agent } from "../../helpers/config.ts";

interface Received {
  method: string;
  params: Record<string, unknown>;
}

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

function world(): { cwd: string; records: string } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "orch-acp-")));
  dirs.push(root);
  const cwd = join(root, "repo");
  const records = join(root, "records");
  Bun.spawnSync(["mkdir", "-p", cwd, records]);
  writeFileSync(join(cwd, "README.md"), "# demo\n");
  git(cwd, "init", "-q");
  git(cwd, "add", ".");
  git(cwd, "commit", "-qm", "init");
  return { cwd, records };
}

function acpAgent(extra: Partial<AgentConfig> = {}): AgentConfig {
  return agent("q", "acp", {
    provider: "fake",
    transport: "acp",
    command: join(FAKES_DIR, "acp"),
    commandArgs: ["--acp"],
    model: undefined,
    ...extra,
  } as Partial<AgentConfig>);
}

async function attempt(
  mode: RunRequest["mode"],
  env: Record<string, string>,
  opts: { agent?: AgentConfig; adapter?: Adapter; resume?: string; signal?: AbortSignal; timeoutMs?: number; model?: string } = {},
) {
  const w = world();
  const result = await runAttempt({
    agent: opts.agent ?? acpAgent(),
    adapter: opts.adapter ?? acpAdapter,
    request: { mode, prompt: "say pong", cwd: w.cwd, ...(opts.resume ? { resumeSessionId: opts.resume } : {}), ...(opts.model ? { model: opts.model } : {}) },
    env: { PATH: `${BUN_DIR}:/usr/bin:/bin`, HOME: w.cwd, FAKE_RECORD_DIR: w.records, ...env },
    timeoutMs: opts.timeoutMs ?? 20_000,
    maxDepth: 2,
    fingerprint: mode === "route",
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  const received = (): Received[] =>
    readdirSync(w.records)
      .filter((f) => /^acp-\d+\.json$/.test(f))
      .flatMap((f) => (JSON.parse(readFileSync(join(w.records, f), "utf8")) as { received: Received[] }).received);
  return { result, received, w };
}

describe("acp transport: one conversation per attempt", () => {
  test("initialize, session/new with the cwd and no MCP servers, the prompt; the reply, usage and cost", async () => {
    const { result, received, w } = await attempt("route", {});
    expect(result.failure).toBeUndefined();
    expect(result.run.text).toBe("PONG-FROM-FAKE");
    expect(result.run.sessionId).toMatch(/^fake-/);
    expect(result.run.usage).toMatchObject({ inputTokens: 642, outputTokens: 4, costUsd: 0.0125 });
    const methods = received().map((m) => m.method);
    expect(methods.slice(0, 3)).toEqual(["initialize", "session/new", "session/prompt"]);
    expect(received()[1]?.params).toEqual({ cwd: w.cwd, mcpServers: [] });
    expect(received()[0]?.params).toMatchObject({
      protocolVersion: 1,
      clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: false },
    });
    expect(liveCount()).toBe(0);
  });

  test("an agent that never exits on a closed stdin (claude-agent-acp) is ended after its grace, not waited for", async () => {
    const started = Date.now();
    const { result } = await attempt("route", { FAKE_ACP_EXIT: "never" });
    expect(result.failure).toBeUndefined();
    expect(result.run.text).toBe("PONG-FROM-FAKE");
    expect(Date.now() - started).toBeLessThan(12_000);
    expect(liveCount()).toBe(0);
  });

  test("non-JSON lines on stdout and an escape-prefixed message (gemini) do not break the conversation", async () => {
    const { result } = await attempt("route", { FAKE_ACP_SCENARIO: "noise" });
    expect(result.failure).toBeUndefined();
    expect(result.run.text).toBe("PONG-FROM-FAKE");
  });
});

describe("acp transport: policy through the protocol", () => {
  test("answer-only rejects a permission request and fails closed: the tree is untouched, the run acted", async () => {
    const { result, received, w } = await attempt("answer", { FAKE_ACP_SCENARIO: "permission" });
    expect(result.run.acted).toBe(true);
    expect(result.failure).toBe("task_failed");
    expect(readFileSync(join(w.cwd, "README.md"), "utf8")).toBe("# demo\n");
    // Whatever reached the agent, nothing was allowed.
    expect(received().find((m) => m.method === "permission-answer")?.params ?? { outcome: { outcome: "none" } }).not.toMatchObject({
      outcome: { optionId: "allow" },
    });
  });

  test("answer-only ends the turn on an acting tool call the agent never asked about, before it lands", async () => {
    const { result, w } = await attempt("answer", { FAKE_ACP_SCENARIO: "act-unasked", FAKE_ACT_DELAY_MS: "3000" });
    expect(result.run.acted).toBe(true);
    expect(result.failure).toBe("task_failed");
    expect(readFileSync(join(w.cwd, "README.md"), "utf8")).toBe("# demo\n");
  });

  test("answer-only lets a read-only tool call through", async () => {
    const { result } = await attempt("answer", { FAKE_ACP_SCENARIO: "read-only" });
    expect(result.failure).toBeUndefined();
    expect(result.run.acted).toBe(false);
  });

  test("a route allows once by default, and the edit lands", async () => {
    const { result, received, w } = await attempt("route", { FAKE_ACP_SCENARIO: "permission" });
    expect(result.failure).toBeUndefined();
    expect(received().find((m) => m.method === "permission-answer")?.params).toEqual({ outcome: { outcome: "selected", optionId: "allow" } });
    expect(readFileSync(join(w.cwd, "README.md"), "utf8")).toContain("edited-by-delegate");
  });

  test("a route whose agent says permissions: reject rejects", async () => {
    const { received, w } = await attempt("route", { FAKE_ACP_SCENARIO: "permission" }, { agent: acpAgent({ permissions: "reject" }) });
    expect(received().find((m) => m.method === "permission-answer")?.params).toEqual({ outcome: { outcome: "selected", optionId: "reject" } });
    expect(readFileSync(join(w.cwd, "README.md"), "utf8")).toBe("# demo\n");
  });

  test("fs: a missing file reads as empty content, so the agent can create it inside the cwd", async () => {
    const { result, received, w } = await attempt("route", { FAKE_ACP_SCENARIO: "fs-write" });
    expect(received().some((m) => m.method === "fs-error")).toBe(false);
    expect(readFileSync(join(w.cwd, "NEW.md"), "utf8")).toBe("written by delegate\n");
    expect(result.failure).toBeUndefined();
  });

  test("the agent's modes: the configured mode id is selected with session/set_mode", async () => {
    const { received } = await attempt("answer", {}, { agent: acpAgent({ modes: { answer: "plan" } }) });
    expect(received().find((m) => m.method === "session/set_mode")?.params).toMatchObject({ modeId: "plan" });
  });

  test("a mode the agent does not offer fails the attempt, naming the ones it does", async () => {
    const { result } = await attempt("answer", {}, { agent: acpAgent({ modes: { answer: "read-only" } }) });
    expect(result.failure).toBe("task_failed");
    expect(result.run.errors.join(" ")).toContain("offers no mode read-only");
  });
});

describe("acp transport: failures read as the headless drivers read them", () => {
  test("a JSON-RPC error on the prompt with rate-limit words is capacity", async () => {
    expect((await attempt("route", { FAKE_ACP_SCENARIO: "rate-limit" })).result.failure).toBe("capacity");
  });

  test("a JSON-RPC error whose code is the HTTP status (gemini) is capacity", async () => {
    expect((await attempt("route", { FAKE_ACP_SCENARIO: "rate-limit-429" })).result.failure).toBe("capacity");
  });

  test("copilot's end_turn whose message is the API error is capacity, not an answer", async () => {
    const copilot = agent("c", "copilot", { transport: "acp", command: join(FAKES_DIR, "acp") } as Partial<AgentConfig>);
    const { result } = await attempt("route", { FAKE_ACP_SCENARIO: "rate-limit-text" }, { agent: copilot, adapter: adapters.copilot });
    expect(result.failure).toBe("capacity");
  });

  test("signed out at session/new is auth, with the agent's own sign-in command", async () => {
    const { result } = await attempt("route", { FAKE_ACP_SCENARIO: "auth" });
    expect(result.failure).toBe("auth");
    expect(result.explanation).toBe("not signed in: run `fake-agent login` in a terminal");
  });

  test("signed out found only at the prompt (claude-agent-acp) is auth too", async () => {
    expect((await attempt("route", { FAKE_ACP_SCENARIO: "auth-prompt" })).result.failure).toBe("auth");
  });

  test("an end_turn with no message is an empty answer", async () => {
    expect((await attempt("route", { FAKE_ACP_SCENARIO: "empty" })).result.failure).toBe("empty_answer");
  });
});

describe("acp transport: cancel, resume, model", () => {
  test("a cancel sends session/cancel, then the group ends; the run is cancelled", async () => {
    const abort = new AbortController();
    const w = world();
    const running = runAttempt({
      agent: acpAgent(),
      adapter: acpAdapter,
      request: { mode: "route", prompt: "p", cwd: w.cwd },
      env: { PATH: `${BUN_DIR}:/usr/bin:/bin`, HOME: w.cwd, FAKE_RECORD_DIR: w.records, FAKE_ACP_SCENARIO: "hang", FAKE_ACP_EXIT: "never" },
      timeoutMs: 30_000,
      maxDepth: 2,
      fingerprint: false,
      signal: abort.signal,
      onEvent: (e) => e.kind === "session" && setTimeout(() => abort.abort("cancelled"), 200),
    });
    const result = await running;
    expect(result.failure).toBe("cancelled");
    const recs = readdirSync(w.records)
      .filter((f) => /^acp-\d+\.json$/.test(f))
      .flatMap((f) => (JSON.parse(readFileSync(join(w.records, f), "utf8")) as { received: Received[] }).received);
    expect(recs.some((m) => m.method === "session/cancel")).toBe(true);
    expect(liveCount()).toBe(0);
  });

  test("resume loads the session in a new process; its replayed history is not this turn's answer", async () => {
    const first = await attempt("answer", {});
    const sessionId = first.result.run.sessionId ?? "";
    const state = { FAKE_ACP_STATE: first.w.records };
    const second = await attempt("answer", state, { resume: sessionId });
    expect(second.received().find((m) => m.method === "session/load")?.params).toMatchObject({ sessionId, mcpServers: [] });
    expect(second.result.run.text).toBe("PONG-FROM-FAKE (earlier: say pong)");
    expect(second.result.run.sessionId).toBe(sessionId);
  });

  test("a configured model goes out as the session's model option; one it refuses fails the attempt", async () => {
    const ok = await attempt("route", { FAKE_ACP_MODELS: "m-1,m-2", FAKE_ACP_SERVED: "m-2" }, { model: "m-2" });
    expect(ok.received().find((m) => m.method === "session/set_config_option")?.params).toMatchObject({ configId: "model", value: "m-2" });
    const refused = await attempt("route", { FAKE_ACP_MODELS: "m-1" }, { model: "nope" });
    expect(refused.result.failure).toBe("task_failed");
    expect(refused.result.explanation).toContain("refused the configured model");
    // opencode lists only what its config declares: the refusal names the models it does list.
    expect(refused.result.explanation).toContain("(it lists: m-1)");
  });

  test("without a model option the model goes out by session/set_model", async () => {
    const { received } = await attempt("route", {}, { model: "m-9" });
    expect(received().find((m) => m.method === "session/set_model")?.params).toMatchObject({ modelId: "m-9" });
  });
});

describe("acp transport: a resume in its session file's own minute (gemini, fakes/acp as gemini 0.61)", () => {
  const ID = "c56e12da-06de-400d-8a01-b11cb73ed251";
  const gemini = () => agent("g", "gemini", { transport: "acp", command: join(FAKES_DIR, "acp"), commandArgs: ["--acp"] } as Partial<AgentConfig>);

  /** The session's file under this minute's name, as gemini leaves it after the session's first turn. */
  function plant(home: string, minuteMs: number): string {
    // The fake names the project's folder by the cwd's name.
    const chats = join(home, ".gemini", "tmp", basename(home), "chats");
    mkdirSync(chats, { recursive: true });
    const file = join(chats, `session-${minuteName(Date.now(), minuteMs)}-${ID.slice(0, 8)}.jsonl`);
    writeFileSync(file, `${JSON.stringify({ sessionId: ID, history: [] })}\n${JSON.stringify({ sessionId: ID, history: ["first"] })}\n`);
    return file;
  }

  async function resume(minuteMs: number, opts: { timeoutMs: number; signal?: AbortSignal; onActivity?: (text: string) => void }) {
    const w = world();
    const file = plant(w.cwd, minuteMs);
    const before = readFileSync(file, "utf8");
    const result = await runAttempt({
      agent: gemini(),
      adapter: adapters.gemini,
      request: { mode: "answer", prompt: "p", cwd: w.cwd, resumeSessionId: ID },
      env: {
        PATH: `${BUN_DIR}:/usr/bin:/bin`,
        HOME: w.cwd,
        FAKE_RECORD_DIR: w.records,
        FAKE_ACP_SESSIONS: "gemini",
        ORCHESTRATE_TEST_MINUTE_MS: String(minuteMs),
      },
      timeoutMs: opts.timeoutMs,
      maxDepth: 2,
      fingerprint: false,
      ...(opts.signal ? { signal: opts.signal } : {}),
      ...(opts.onActivity ? { onActivity: opts.onActivity } : {}),
    });
    const recs = readdirSync(w.records)
      .filter((f) => /^acp-\d+\.json$/.test(f))
      .map((f) => JSON.parse(readFileSync(join(w.records, f), "utf8")) as { at: number; received: (Received & { at: number })[] });
    return { result, file, before, recs };
  }

  // Minutes of about thirty years: this one cannot turn while the test runs, so the wait is certain.
  const AGES = 1e12;

  test("the wait is said on the progress line; a cancel during it ends the run cancelled before the agent starts", async () => {
    const abort = new AbortController();
    const lines: string[] = [];
    const onActivity = (text: string) => {
      lines.push(text);
      abort.abort("cancelled");
    };
    const { result, file, before, recs } = await resume(AGES, { timeoutMs: 60_000, signal: abort.signal, onActivity });
    expect(lines[0]).toMatch(/^waiting \d+ s for gemini's session minute to turn$/);
    expect(result.failure).toBe("cancelled");
    expect(recs).toEqual([]);
    expect(readFileSync(file, "utf8")).toBe(before);
  });

  test("a wall time shorter than the wait ends the run timed out when it is up, the agent never started", async () => {
    // Long enough for the agent to have started, loaded and failed, had it not been held.
    const { result, file, before, recs } = await resume(AGES, { timeoutMs: 2000 });
    expect(result.failure).toBe("timeout");
    expect(recs).toEqual([]);
    expect(readFileSync(file, "utf8")).toBe(before);
  });

  test("the load comes in a later minute than the file's and resumes the session from its own file, as it was", async () => {
    const minuteMs = 3000;
    const { result, file, before, recs } = await resume(minuteMs, { timeoutMs: 30_000 });
    expect(result.failure).toBeUndefined();
    expect(result.run.text).toBe("PONG-FROM-FAKE (earlier: first)");
    const [rec] = recs;
    const load = rec?.received.find((m) => m.method === "session/load");
    // The fake's own clock: when it received the load, against the minute the file is named by.
    expect(minuteName((rec?.at ?? 0) + (load?.at ?? 0), minuteMs)).not.toBe(/session-(.+)-c56e12da/.exec(file)?.[1]);
    expect(rec?.received.find((m) => m.method === "session-file")?.params).toEqual({ name: basename(file), content: before });
  }, 30_000);
});
