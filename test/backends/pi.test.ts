import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { piAdapter } from "../../src/backends/pi/index.ts";
import { piListedModels } from "../../src/backends/pi/machine.ts";
import { piAuthCheckArgv, piReadiness } from "../../src/backends/pi/probes.ts";
import { PI_LINE_0, PI_LINE_1, PI_LINE_1_OLD_NODE, PI_LINE_UNKNOWN } from "../../src/backends/pi/variant.ts";
import { foldEvents } from "../../src/backends/fold.ts";
import type { ExitOutcome, FailureClass, RunRequest } from "../../src/backends/contract.ts";

/** Real captures: the research's (0.73.1 and 1.6.0) and the ones taken here with the adapter's own argv. */
const CAPTURES = join(import.meta.dir, "..", "..", "fakes", "scenarios", "pi", "captures");

function capture(name: string): ExitOutcome & { kinds: string[] } {
  const read = (ext: string) => readFileSync(join(CAPTURES, `${name}.${ext}`), "utf8");
  const rc = /^rc: (\d+)/m.exec(read("meta"))?.[1];
  const lines = read("stdout")
    .split("\n")
    .filter((l) => l.trim() !== "");
  const events = lines.flatMap((l) => piAdapter.parse(l));
  const raw = lines.filter((l) => !l.trim().startsWith("{"));
  return { exitCode: Number(rc), signal: null, events, stderrTail: read("stderr"), rawStdoutTail: raw.join("\n"), kinds: events.map((e) => e.kind) };
}

const base: RunRequest = { mode: "route", prompt: "fix the bug", cwd: "/work/repo", provider: "anthropic", model: "claude-sonnet-4-5" };
const ISOLATION = [
  "--no-extensions",
  "--no-skills",
  "--no-prompt-templates",
  "--no-themes",
  "--no-context-files",
  "--system-prompt",
  "",
  "--append-system-prompt",
  "",
];

describe("pi invocation per release line and mode", () => {
  const table: [string, Partial<RunRequest>, string[]][] = [
    ["0.x route", { variant: PI_LINE_0 }, ["--mode", "json", "--provider", "anthropic", "--model", "claude-sonnet-4-5", "--offline", ...ISOLATION]],
    [
      "0.x answer: read-only tools",
      { variant: PI_LINE_0, mode: "answer" },
      ["--mode", "json", "--provider", "anthropic", "--model", "claude-sonnet-4-5", "--offline", ...ISOLATION, "--tools", "read,grep,find,ls"],
    ],
    [
      "1.x route: project files untrusted, no MCP",
      { variant: PI_LINE_1 },
      ["--mode", "json", "--provider", "anthropic", "--model", "claude-sonnet-4-5", "--offline", ...ISOLATION, "--no-approve", "--no-mcp"],
    ],
    [
      "1.x answer resumed",
      { variant: PI_LINE_1, mode: "answer", resumeSessionId: "01a2331e" },
      [
        "--mode",
        "json",
        "--provider",
        "anthropic",
        "--model",
        "claude-sonnet-4-5",
        "--offline",
        ...ISOLATION,
        "--no-approve",
        "--no-mcp",
        "--tools",
        "read,grep,find,ls",
        "--session",
        "01a2331e",
      ],
    ],
    [
      "unknown line: the 0.x flags, which 1.x takes too",
      { variant: PI_LINE_UNKNOWN },
      ["--mode", "json", "--provider", "anthropic", "--model", "claude-sonnet-4-5", "--offline", ...ISOLATION],
    ],
    ["no variant at all: the same", {}, ["--mode", "json", "--provider", "anthropic", "--model", "claude-sonnet-4-5", "--offline", ...ISOLATION]],
  ];
  for (const [name, extra, args] of table) {
    test(name, () => {
      const inv = piAdapter.invocation({ ...base, ...extra });
      expect(inv.args).toEqual(args);
      expect(inv.stdin).toBe("fix the bug");
      expect(inv.env).toBeUndefined();
    });
  }

  test("0.73 never gets a 1.x-only flag (fatal `Unknown option` there)", () => {
    for (const mode of ["route", "answer"] as const) {
      const args = piAdapter.invocation({ ...base, mode, variant: PI_LINE_0, resumeSessionId: "x" }).args;
      for (const flag of ["--no-approve", "-na", "--approve", "--no-mcp", "--session-id", "--exclude-tools", "--"]) expect(args).not.toContain(flag);
    }
  });

  test("the prompt is never in argv: a dash, an @file or a huge prompt stays on stdin", () => {
    for (const prompt of ["--help me", "@/etc/passwd explain", "x".repeat(300_000)]) {
      const inv = piAdapter.invocation({ ...base, prompt });
      expect(inv.args).not.toContain(prompt);
      expect(inv.stdin).toBe(prompt);
    }
  });

  test("provider always travels with the model; nothing is invented when either is absent", () => {
    expect(piAdapter.invocation(withoutModel(base)).args.slice(0, 5)).toEqual(["--mode", "json", "--provider", "anthropic", "--offline"]);
    const bare = piAdapter.invocation({ mode: "route", prompt: "p", cwd: "/r" }).args;
    expect(bare).not.toContain("--provider");
    expect(bare).not.toContain("--model");
  });
});

describe("pi parse over real captures (both lines)", () => {
  test("0.73.1 json success: session, model echo, text, usage, final", () => {
    const run = capture("v0.73.1/pi-fake-json-basic");
    expect(run.kinds).toEqual(["session", "model", "text", "usage", "final"]);
    const folded = foldEvents(run.events);
    expect(folded).toMatchObject({ sessionId: "01a2331a-c6a1-7492-9c5e-c77df45219c1", text: "PONG-FROM-FAKE", models: [], acted: false });
    expect(folded.usage).toEqual({ inputTokens: 612, outputTokens: 4, cachedInputTokens: 0, costUsd: 0.001896, turns: 1 });
  });

  test("1.6.0 json success: the system pair, delta updates and agent_settled add nothing", () => {
    const run = capture("v1.6.0/pi-fake-json-basic");
    expect(run.kinds).toEqual(["session", "model", "text", "usage", "final"]);
    expect(foldEvents(run.events)).toMatchObject({ text: "PONG-FROM-FAKE", usage: { inputTokens: 606, outputTokens: 4, costUsd: 0.001878, turns: 1 } });
  });

  test("the stream taken here with the adapter's own argv (real 0.73.1, loopback server)", () => {
    const run = capture("v0.73.1-here/route-basic");
    expect(foldEvents(run.events)).toMatchObject({ text: "PONG-FROM-REAL", usage: { inputTokens: 42, outputTokens: 7, turns: 1 } });
    expect(piAdapter.classify(run)).toBeUndefined();
  });

  test("the model actually served is responseModel; `model` is only an echo", () => {
    expect(foldEvents(capture("v1.6.0/pi-proxy-json-routed-model").events).models).toEqual(["vendor/routed-model-2026-05-01"]);
    expect(foldEvents(capture("v0.73.1/pi-proxy-json-routed-model").events).models).toEqual(["vendor/routed-model-2026-05-01"]);
    expect(foldEvents(capture("v0.73.1-here/route-routed-model").events).models).toEqual(["vendor/routed-model-2026-05-01"]);
    expect(capture("v0.73.1/pi-fake-json-unknown-model").events).toContainEqual({ kind: "model", model: "no-such-model", requested: true });
  });

  test("tool round trip: acting bash start/end, usage per model call adds up over two messages", () => {
    for (const line of ["v0.73.1", "v1.6.0"]) {
      const run = capture(`${line}/pi-fake-json-toolcall-bash`);
      const tools = run.events.filter((e) => e.kind === "tool");
      expect(tools).toEqual([
        { kind: "tool", name: "bash", phase: "start", acts: true, detail: "echo edited-by-delegate >> README.md" },
        { kind: "tool", name: "bash", phase: "end", acts: true, ...(line === "v1.6.0" ? { exitCode: 0 } : {}) },
      ]);
      const folded = foldEvents(run.events);
      expect(folded.acted).toBe(true);
      expect(folded.usage.turns).toBe(2);
      expect(folded.text).toBe("PONG-FROM-FAKE");
    }
  });

  test("read-only tools do not count as acting; edit does", () => {
    expect(foldEvents(capture("v0.73.1/pi-fake-json-toolcall-readonly").events).acted).toBe(false);
    expect(capture("v0.73.1/pi-fake-json-toolcall-readonly").events).toContainEqual({
      kind: "tool",
      name: "read",
      phase: "start",
      acts: false,
      detail: "README.md",
    });
    expect(foldEvents(capture("v1.6.0/pi-fakeedit-json-edit-tool").events).acted).toBe(true);
  });

  test("0.73 retries: one error + final per attempt, a retry notice between; the last final decides", () => {
    const run = capture("v0.73.1/pi-fake-json-429");
    expect(run.kinds.filter((k) => k === "retry")).toHaveLength(3);
    expect(run.kinds.filter((k) => k === "final")).toHaveLength(4);
    expect(run.events.find((e) => e.kind === "retry")).toEqual({
      kind: "retry",
      message: "retry 1/3 in 2 s: 429 Rate limit reached for requests. Please try again in 20s.",
      failure: "capacity",
    });
    expect(run.events.find((e) => e.kind === "error")).toMatchObject({ failure: "capacity" });
  });

  test("1.x retries: agent_end with willRetry:true is no verdict; only the last one is", () => {
    const run = capture("v1.6.0/pi-fake-json-429");
    expect(run.kinds.filter((k) => k === "final")).toHaveLength(1);
    expect(run.kinds.filter((k) => k === "retry")).toHaveLength(3);
    expect(run.events.filter((e) => e.kind === "retry").every((e) => e.kind === "retry" && e.failure === "capacity")).toBe(true);
  });

  test("a 529 retry is capacity, a connection error transport, a 401 is no retry signal at all", () => {
    const retry = (errorMessage: string) =>
      piAdapter.parse(JSON.stringify({ type: "auto_retry_start", attempt: 1, maxAttempts: 3, delayMs: 2000, errorMessage }))[0];
    expect(retry('529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}')).toMatchObject({ failure: "capacity" });
    expect(retry("Connection error.")).toMatchObject({ failure: "transport" });
    expect(retry("401 Incorrect API key provided")).not.toHaveProperty("failure");
    // pi's own delay is not the provider's retry-after.
    expect(retry("429 Rate limit")).not.toHaveProperty("retryAfterSec");
  });

  test("resume keeps the session id and reports only the new turn's usage", () => {
    const first = foldEvents(capture("v0.73.1/pi-fake-json-session-first").events);
    const again = foldEvents(capture("v0.73.1/pi-fake-json-session-resume-by-id").events);
    expect(again.sessionId).toBe("01a2331e-5cbd-77e3-9009-14cae049dfbc");
    expect(first.sessionId).toBe(again.sessionId);
    expect(again.usage.turns).toBe(1);
    const here = foldEvents(capture("v0.73.1-here/route-resume").events);
    expect(here.sessionId).toBe(foldEvents(capture("v0.73.1-here/route-basic").events).sessionId);
  });

  test("garbage never throws", () => {
    for (const line of [
      "",
      "not json",
      "{",
      "[1]",
      "null",
      '{"type":"message_end"}',
      '{"type":"message_end","message":{"role":"assistant","content":"x"}}',
      '{"type":"agent_end","messages":7}',
      '{"type":"session","id":3}',
      '{"type":"tool_execution_end"}',
    ]) {
      expect(() => piAdapter.parse(line)).not.toThrow();
    }
    expect(piAdapter.parse('{"type":"agent_end","messages":[]}')).toEqual([{ kind: "final", ok: false, message: "pi ended without an assistant message" }]);
  });
});

describe("pi classify over real captures", () => {
  const cases: [string, FailureClass | undefined][] = [
    ["v0.73.1/pi-fake-json-basic", undefined],
    ["v1.6.0/pi-fake-json-basic", undefined],
    ["v0.73.1/pi-fake-json-toolcall-bash", undefined],
    ["v0.73.1/pi-fake-json-401", "auth"],
    ["v1.6.0/pi-fake-json-401", "auth"],
    ["v0.73.1/pi-fake-json-429", "capacity"],
    ["v1.6.0/pi-fake-json-429", "capacity"],
    ["v0.73.1-here/route-429", "capacity"],
    ["v0.73.1/pi-fakeant-json-529", "capacity"],
    ["v1.6.0/pi-fakeant-json-529", "capacity"],
    ["v0.73.1/pi-nocreds-json", "auth"],
    ["v1.6.0/pi-nocreds-json", "auth"],
    ["v0.73.1/pi-proxy-json-404-model", "task_failed"],
    ["v0.73.1/pi-fake-print-unknown-provider", "task_failed"],
    ["v0.73.1/pi-fake-rpc-peer-flags", "task_failed"],
    ["v0.73.1/pi-fake-print-session-missing", "task_failed"],
  ];
  for (const [name, expected] of cases) {
    test(`${name} → ${String(expected)}`, () => {
      expect(piAdapter.classify(capture(name))).toBe(expected);
    });
  }

  const synthetic: [string, Partial<ExitOutcome>, FailureClass | undefined][] = [
    ["not on PATH", { exitCode: 127 }, "not_installed"],
    [
      "1.x on Node 20",
      { exitCode: 1, stderrTail: "SyntaxError: The requested module 'node:module' does not provide an export named 'enableCompileCache'" },
      "not_installed",
    ],
    ["exit 0, nothing at all (empty prompt; a declined fork)", { exitCode: 0 }, "empty_answer"],
    ["exit 0, garbage", { exitCode: 0, rawStdoutTail: "pi: {not json" }, "bad_output"],
    ["killed mid-run", { exitCode: null, signal: "SIGKILL" }, "task_failed"],
    ["a connection error", { exitCode: 0, events: [{ kind: "final", ok: false, message: "Connection error." }] }, "transport"],
    [
      "an answer cut at the token limit",
      { exitCode: 0, events: [{ kind: "final", ok: false, message: "the reply was cut at the output token limit (stopReason length)" }] },
      "task_failed",
    ],
    ["a verdict that answered nothing", { exitCode: 0, events: [{ kind: "final", ok: true, text: "  " }] }, "empty_answer"],
  ];
  for (const [name, partial, expected] of synthetic) {
    test(`${name} → ${String(expected)}`, () => {
      expect(piAdapter.classify({ exitCode: 0, signal: null, events: [], stderrTail: "", rawStdoutTail: "", ...partial })).toBe(expected);
    });
  }

  test("explain names what the class does not", () => {
    const explain = (name: string) => piAdapter.explain?.(capture(name)) ?? "";
    expect(explain("v0.73.1/pi-fake-rpc-peer-flags")).toContain("--no-approve");
    expect(explain("v0.73.1/pi-fake-print-unknown-provider")).toContain('provider "nosuchprov"');
    expect(explain("v0.73.1/pi-fake-print-session-missing")).toContain("deadbeef");
    expect(explain("v0.73.1/pi-fake-json-basic")).toBe("");
  });
});

describe("pi variant, readiness, models, traits", () => {
  const out = (stdout: string, stderr = "", exitCode: number | null = 0) => ({ stdout, stderr, exitCode });
  const table: [string, ReturnType<typeof out>, string][] = [
    ["0.73.1 prints its version on stderr (stdin not a terminal)", out("", "0.73.1\n"), PI_LINE_0],
    ["1.6.0 on stdout", out("1.6.0\n"), PI_LINE_1],
    ["a later 1.x", out("v1.12.3\n"), PI_LINE_1],
    [
      "1.x dying on Node 20",
      out("", "SyntaxError: The requested module 'node:module' does not provide an export named 'enableCompileCache'\n", 1),
      PI_LINE_1_OLD_NODE,
    ],
    ["nothing printed (probe failed)", out("", "", null), PI_LINE_UNKNOWN],
  ];
  for (const [name, probe, line] of table) {
    test(name, () => expect(piAdapter.variant?.read(probe)).toBe(line));
  }

  test("per-line traits: 1.x requires its own flags; a 1.x on old Node is refused, naming the version needed", () => {
    const traits = (v: string) => piAdapter.variant?.traits(v);
    expect(traits(PI_LINE_1)?.probes?.requiredFlags.map((f) => f.flag)).toEqual(expect.arrayContaining(["--no-approve", "--no-mcp"]));
    expect(traits(PI_LINE_0)?.probes?.requiredFlags.map((f) => f.flag)).not.toContain("--no-approve");
    expect(traits(PI_LINE_1_OLD_NODE)?.refuse).toContain("Node 22.19");
    expect(traits(PI_LINE_0)?.supportsResume).toBe(true);
    expect(piAdapter.probes.auth).toBeUndefined();
  });

  test("`pi auth check --json` (1.x) read as one bit; a usage error is no verdict", () => {
    const read = (name: string) =>
      piReadiness({
        stdout: readFileSync(join(CAPTURES, `v1.6.0/${name}.stdout`), "utf8"),
        stderr: readFileSync(join(CAPTURES, `v1.6.0/${name}.stderr`), "utf8"),
        exitCode: Number(/^rc: (\d+)/m.exec(readFileSync(join(CAPTURES, `v1.6.0/${name}.meta`), "utf8"))?.[1]),
      });
    expect(read("pi-fake-auth-check-json")).toBe("ready");
    expect(read("pi-nocreds-auth-check-json")).toBe("not_ready");
    expect(read("pi-nocreds-auth-check-default")).toBe("unknown");
    expect(piAuthCheckArgv("fake", "fake-model")).toEqual(["auth", "check", "--provider", "fake", "--model", "fake-model", "--json"]);
  });

  test("models: the 1.x table as provider/model; 0.73 lists on stderr, so not at all", () => {
    const ids = piListedModels(readFileSync(join(CAPTURES, "v1.6.0/pi-list-models.stdout"), "utf8"));
    expect(ids.slice(0, 2)).toEqual(["fake/authfail-model", "fake/editfail-model"]);
    expect(ids).toContain("proxy/routed-model");
    expect(ids).not.toContain("provider/model");
    expect(piAdapter.models?.argv(PI_LINE_1)).toEqual(["--list-models", "--offline"]);
    expect(piAdapter.models?.argv(PI_LINE_0)).toBeUndefined();
  });

  test("declared provider, streamed per-turn usage, identity in the stream, no containment", () => {
    expect(piAdapter.provider).toEqual({ kind: "declared" });
    expect(piAdapter.traits).toEqual({
      usage: { tokens: "streamed", cost: "streamed", turns: "streamed" },
      identity: "stream",
      resumedUsage: "per-turn",
      containment: "none",
    });
    expect(piAdapter.preflight).toBeUndefined();
    expect(piAdapter.registration).toBeUndefined();
    expect(piAdapter.client).toBeUndefined();
  });
});

function withoutModel({ model: _model, ...request }: RunRequest): RunRequest {
  return request;
}
