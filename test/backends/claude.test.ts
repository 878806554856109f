import { deriveProvider } from "../../src/config/providers.ts";
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { claudeAdapter } from "../../src/backends/claude/index.ts";
import { CLAUDE_ISOLATION_ARGS } from "../../src/backends/claude/invocation.ts";
import { claudeToolActs } from "../../src/backends/claude/parse.ts";
import { foldEvents } from "../../src/backends/fold.ts";
import type { AgentEvent, ExitOutcome, FailureClass, RunRequest } from "../../src/backends/contract.ts";

const FIXTURES = join(import.meta.dir, "..", "fixtures", "claude");

/** A real capture (research/transcripts) turned into what process/ would hand to classify(). */
function capture(name: string): ExitOutcome & { kinds: string[] } {
  const stdout = readFileSync(join(FIXTURES, `${name}.stdout`), "utf8");
  const stderr = readFileSync(join(FIXTURES, `${name}.stderr`), "utf8");
  const rc = /rc=(\d+)/.exec(readFileSync(join(FIXTURES, `${name}.meta`), "utf8"))?.[1];
  const lines = stdout.split("\n").filter((l) => l.trim() !== "");
  const events = lines.flatMap((l) => claudeAdapter.parse(l));
  const raw = lines.filter((l) => !l.trim().startsWith("{"));
  return { exitCode: Number(rc), signal: null, events, stderrTail: stderr, rawStdoutTail: raw.join("\n"), kinds: events.map((e) => e.kind) };
}

const base: RunRequest = { mode: "route", prompt: "fix the bug", cwd: "/work/repo" };
const isolation = [...CLAUDE_ISOLATION_ARGS];

function containsSeq(args: string[], seq: string[]): boolean {
  return args.some((_, i) => seq.every((s, j) => args[i + j] === s));
}

describe("claude invocation", () => {
  const table: [string, RunRequest][] = [
    ["route default", base],
    ["route bypass", { ...base, options: { permissionMode: "bypassPermissions", allowedTools: ["Bash(git *)", "Edit"] } }],
    ["answer", { ...base, mode: "answer", outputSchema: '{"type":"object"}' }],
    ["answer resume", { ...base, mode: "answer", resumeSessionId: "c895-id", model: "opus" }],
  ];
  for (const [name, req] of table) {
    test(`${name}: stream-json --verbose, isolation flags, prompt only on stdin, fast failures`, () => {
      const inv = claudeAdapter.invocation(req);
      expect(inv.args.slice(0, 4)).toEqual(["-p", "--output-format", "stream-json", "--verbose"]);
      expect(containsSeq(inv.args, isolation)).toBe(true);
      expect(inv.args.join(" ")).not.toContain("fix the bug");
      expect(inv.stdin).toBe("fix the bug");
      expect(inv.env?.CLAUDE_CODE_MAX_RETRIES).toBe("1");
      // Present as undefined: removed from the inherited environment, never passed on.
      expect(Object.hasOwn(inv.env ?? {}, "CLAUDE_CODE_RETRY_WATCHDOG") && inv.env?.CLAUDE_CODE_RETRY_WATCHDOG === undefined).toBe(true);
      expect(inv.env?.IS_SANDBOX).toBeUndefined();
    });
  }

  test("an inherited IS_SANDBOX is stripped (it turns off claude's own stop after three 529s), except where bypassPermissions needs it", () => {
    expect(Object.hasOwn(claudeAdapter.invocation(base).env ?? {}, "IS_SANDBOX")).toBe(true);
    expect(Object.hasOwn(claudeAdapter.invocation({ ...base, mode: "answer" }).env ?? {}, "IS_SANDBOX")).toBe(true);
    expect(Object.hasOwn(claudeAdapter.invocation({ ...base, options: { permissionMode: "bypassPermissions" } }).env ?? {}, "IS_SANDBOX")).toBe(false);
  });

  test("--fallback-model is never passed (it switches models silently on 529)", () => {
    for (const [, req] of table) expect(claudeAdapter.invocation(req).args).not.toContain("--fallback-model");
  });

  test("a 300 KiB prompt: stdin only, argv stays small", () => {
    const prompt = "y".repeat(300 * 1024);
    const inv = claudeAdapter.invocation({ ...base, prompt });
    expect(inv.stdin).toBe(prompt);
    expect(inv.args.join(" ").length).toBeLessThan(500);
  });

  test("route: acceptEdits by default, the entry's mode and allowed tools otherwise", () => {
    expect(containsSeq(claudeAdapter.invocation(base).args, ["--permission-mode", "acceptEdits"])).toBe(true);
    const args = claudeAdapter.invocation(table[1]![1]).args;
    expect(containsSeq(args, ["--permission-mode", "bypassPermissions"])).toBe(true);
    expect(containsSeq(args, ["--allowedTools", "Bash(git *)", "Edit"])).toBe(true);
    expect(args).not.toContain("--tools");
  });

  test("answer with web: only WebSearch and WebFetch are sent, pre-approved; their use is marked web", () => {
    const args = claudeAdapter.invocation({ ...base, mode: "answer", web: true, options: { allowedTools: ["Bash"] } }).args;
    expect(containsSeq(args, ["--safe-mode", "--tools", "WebSearch,WebFetch", "--permission-mode", "dontAsk"])).toBe(true);
    expect(containsSeq(args, ["--allowedTools", "WebSearch", "WebFetch"])).toBe(true);
    expect(args).not.toContain("Bash");
    const use = (name: string, input: Record<string, string>) =>
      claudeAdapter
        .parse(JSON.stringify({ type: "assistant", message: { id: "m", model: "claude-opus-5-5", content: [{ type: "tool_use", id: "t", name, input }] } }))
        .filter((e) => e.kind === "tool");
    expect(use("WebSearch", { query: "pong" })).toEqual([{ kind: "tool", name: "WebSearch", phase: "start", acts: false, detail: "pong", web: "search" }]);
    expect(use("WebFetch", { url: "https://example.org", prompt: "p" })).toEqual([
      { kind: "tool", name: "WebFetch", phase: "start", acts: false, detail: "https://example.org", web: "fetch" },
    ]);
    expect(use("Read", { file_path: "/x" })[0]).not.toHaveProperty("web");
  });

  test("answer: no tools, dontAsk, safe mode, native schema; never allowedTools", () => {
    const args = claudeAdapter.invocation({
      ...base,
      mode: "answer",
      outputSchema: '{"type":"object"}',
      options: { allowedTools: ["Bash"], permissionMode: "bypassPermissions" },
    }).args;
    expect(containsSeq(args, ["--safe-mode", "--tools", "", "--permission-mode", "dontAsk"])).toBe(true);
    expect(containsSeq(args, ["--json-schema", '{"type":"object"}'])).toBe(true);
    expect(args).not.toContain("--allowedTools");
    expect(args).not.toContain("bypassPermissions");
  });

  test("model and resume", () => {
    const args = claudeAdapter.invocation(table[3]![1]).args;
    expect(containsSeq(args, ["--model", "opus"])).toBe(true);
    expect(containsSeq(args, ["--resume", "c895-id"])).toBe(true);
    expect(claudeAdapter.invocation(base).args).not.toContain("--resume");
  });
});

describe("claude parse over real 2.1.332 captures", () => {
  test("plain success: session, model, text, then the result's session/models/usage/final", () => {
    const run = capture("claude-fake-basic-stream-json");
    expect(run.kinds).toEqual(["session", "model", "model", "text", "usage", "session", "model", "usage", "final"]);
    const folded = foldEvents(run.events);
    expect(folded).toMatchObject({ sessionId: "b9213040-303d-42a0-a54c-4ad818ea1622", text: "PONG-FROM-FAKE", models: ["claude-opus-5-5"], acted: false });
    expect(folded.usage).toEqual({ inputTokens: 42, outputTokens: 7, cachedInputTokens: 0, costUsd: 0.000308, turns: 1 });
  });

  test("an unknown --model is passed through and reported as-is (init, message, modelUsage)", () => {
    expect(foldEvents(capture("claude-fake-bogus-model").events).models).toEqual(["totally-bogus-model-xyz"]);
  });

  test("tools: Bash acts; a Write names its file; MCP tools act", () => {
    const tool = capture("claude-fake-tool-default-mode").events.find((e) => e.kind === "tool");
    expect(tool).toEqual({ kind: "tool", name: "Bash", detail: "echo hello-from-tool", phase: "start", acts: true });
    const write = capture("claude-fake-write-acceptEdits");
    expect(write.kinds).toContain("file_change");
    expect(foldEvents(write.events).acted).toBe(true);
    expect(capture("claude-fake-mcp-allowed").events).toContainEqual(expect.objectContaining({ kind: "tool", name: "mcp__echo__echo", acts: true }));
    expect(claudeToolActs("Read")).toBe(false);
    expect(claudeToolActs("StructuredOutput")).toBe(false);
    expect(claudeToolActs("Task")).toBe(true);
  });

  test("thinking, and ui_invalidate before init (safe mode)", () => {
    expect(capture("claude-fake-thinking").events).toContainEqual({ kind: "thinking", text: "The user wants a pong." });
    expect(capture("claude-fake-flag--safe-mode").kinds.slice(0, 2)).toEqual(["session", "model"]);
  });

  test("synthetic API-error messages are errors, never answers, and <synthetic> is not a model", () => {
    const run = capture("claude-fake-fail-429-maxretries0");
    expect(run.kinds).toEqual(["session", "model", "error", "session", "usage", "error", "final"]);
    // The init model is an echo of the request and the assistant line is <synthetic>: no evidence.
    expect(foldEvents(run.events).models).toEqual([]);
    expect(run.events.filter((e) => e.kind === "text")).toEqual([]);
    expect(run.events.at(-1)).toMatchObject({ kind: "final", ok: false });
  });

  test("api_retry lines are retries", () => {
    const retries = capture("claude-fake-fail-429").events.filter((e) => e.kind === "retry");
    expect(retries.length).toBe(8);
    expect(retries[0]).toEqual({ kind: "retry", message: "API retry 1/10 (429, rate_limit)", failure: "capacity" });
  });

  test("api_retry: capacity by status or kind, transport without a status, the provider's wait only above claude's own backoff", () => {
    const retry = (fields: Record<string, unknown>) =>
      claudeAdapter.parse(
        JSON.stringify({ type: "system", subtype: "api_retry", attempt: 1, max_retries: 1, retry_delay_ms: 546.8, session_id: "s", ...fields }),
      )[0];
    expect(retry({ error_status: 529, error: "overloaded" })).toEqual({ kind: "retry", message: "API retry 1/1 (529, overloaded)", failure: "capacity" });
    expect(retry({ error_status: 503, error: "server_error" })).toMatchObject({ failure: "capacity" });
    expect(retry({ error_status: null, error: "unknown" })).toMatchObject({ failure: "transport" });
    expect(retry({ error_status: 401, error: "authentication_failed" })).not.toHaveProperty("failure");
    // retry-after: 1 on attempt 1 gives 1000 ms > 625 ms (500 ms + 25 % jitter): the provider's wait.
    expect(retry({ error_status: 429, error: "rate_limit", retry_delay_ms: 1000 })).toMatchObject({ failure: "capacity", retryAfterSec: 1 });
    expect(retry({ error_status: 429, error: "rate_limit", retry_delay_ms: 20_000 })).toMatchObject({ retryAfterSec: 20 });
    expect(retry({ error_status: 429, error: "rate_limit", retry_delay_ms: 600 })).not.toHaveProperty("retryAfterSec");
    expect(retry({ attempt: 3, error_status: 529, error: "overloaded", retry_delay_ms: 2400 })).not.toHaveProperty("retryAfterSec");
  });

  test("a permission denial (real 2.1.332 capture): reported live and in the result, folded into one refusal; the run is still a success", () => {
    const run = capture("claude-fake-touch-mode-default");
    const folded = foldEvents(run.events);
    expect(folded.refusals).toEqual([
      {
        tool: "Bash",
        id: "toolu_fake_mx1vj6vm_50",
        detail: "touch touched.txt && echo touched",
        message:
          "touch in '<workdir><workdir>' needs approval. The path is inside the working directories for this session ('<workdir>/work'), and Claude Code asks before a shell command creates, changes or removes files there.",
      },
    ]);
    expect(claudeAdapter.classify(run)).toBeUndefined();
    // 2.1.197 names it only in the result's permission_denials.
    const result = JSON.stringify({
      type: "result",
      subtype: "success",
      is_error: false,
      result: "done",
      session_id: "s",
      permission_denials: [{ tool_name: "Write", tool_use_id: "t1", tool_input: { file_path: "/r/x.txt", content: "x" } }],
    });
    expect(claudeAdapter.parse(result).filter((e) => e.kind === "refusal")).toEqual([{ kind: "refusal", tool: "Write", id: "t1", detail: "/r/x.txt" }]);
  });

  test("a model_fallback line names the model that answers from then on", () => {
    const line = JSON.stringify({
      type: "system",
      subtype: "model_fallback",
      trigger: "overloaded",
      original_model: "overload-model",
      fallback_model: "fake-model",
      content: "Switched to fake-model due to high demand for overload-model",
    });
    expect(claudeAdapter.parse(line)).toEqual([{ kind: "model", model: "fake-model" }]);
  });

  test("structured output becomes final.structured", () => {
    const line = JSON.stringify({
      type: "result",
      subtype: "success",
      is_error: false,
      result: '{"answer":"PONG"}',
      structured_output: { answer: "PONG" },
      session_id: "s",
      num_turns: 2,
    });
    expect(claudeAdapter.parse(line).at(-1)).toEqual({ kind: "final", ok: true, text: '{"answer":"PONG"}', structured: { answer: "PONG" } });
  });

  test("garbage never throws", () => {
    for (const line of ["", "x", "{", "[]", '{"type":"assistant"}', '{"type":"result"}', '{"type":"assistant","message":{"content":"str"}}']) {
      expect(() => claudeAdapter.parse(line)).not.toThrow();
    }
    expect(claudeAdapter.parse("not json")).toEqual([]);
  });
});

describe("claude classify over real captures", () => {
  const cases: [string, FailureClass | undefined][] = [
    ["claude-fake-basic-stream-json", undefined],
    ["claude-fake-tool-default-mode", undefined],
    ["claude-fake-touch-mode-default", undefined],
    ["claude-p-noauth-stream-json", "auth"],
    ["claude-fake-fail-401-maxretries0", "auth"],
    ["claude-fake-fail-429-maxretries0", "capacity"],
    ["claude-fake-fail-529-maxretries0", "capacity"],
    ["claude-fake-fail-500-maxretries0", "capacity"],
    ["claude-p-dummykey-nonetwork-maxretries0", "transport"],
    ["claude-fake-fail-400-maxretries0", "task_failed"],
    ["claude-fake-fail-404", "task_failed"],
    ["claude-fake-resume-bogus", "task_failed"],
    ["claude-p-noauth-stream-json-noverbose", "task_failed"],
    ["claude-fake-touch-mode-bypassPermissions", "task_failed"],
  ];
  for (const [name, expected] of cases) {
    test(`${name} → ${String(expected)}`, () => {
      expect(claudeAdapter.classify(capture(name))).toBe(expected);
    });
  }

  test("the root refusal of bypassPermissions gets a clear explanation", () => {
    expect(claudeAdapter.explain(capture("claude-fake-touch-mode-bypassPermissions"))).toContain("IS_SANDBOX=1");
    expect(claudeAdapter.explain(capture("claude-fake-basic-stream-json"))).toBeUndefined();
  });

  const outcome = (events: AgentEvent[], exitCode: number | null, extra: Partial<ExitOutcome> = {}): ExitOutcome => ({
    exitCode,
    signal: null,
    events,
    stderrTail: "",
    rawStdoutTail: "",
    ...extra,
  });

  test("empty answer, missing binary, bad output, crash", () => {
    expect(claudeAdapter.classify(outcome([{ kind: "final", ok: true, text: "  " }], 0))).toBe("empty_answer");
    expect(claudeAdapter.classify(outcome([{ kind: "final", ok: true, text: "", structured: { answer: "x" } }], 0))).toBeUndefined();
    expect(claudeAdapter.classify(outcome([], 1, { stderrTail: "Error: claude native binary not installed." }))).toBe("not_installed");
    expect(claudeAdapter.classify(outcome([], 127))).toBe("not_installed");
    expect(claudeAdapter.classify(outcome([{ kind: "session", sessionId: "s" }], 0, { rawStdoutTail: "garbage" }))).toBe("bad_output");
    expect(claudeAdapter.classify(outcome([{ kind: "session", sessionId: "s" }], null, { signal: "SIGSEGV" }))).toBe("task_failed");
  });

  test("exit 0 with is_error still fails", () => {
    const events = claudeAdapter.parse(
      JSON.stringify({ type: "result", subtype: "success", is_error: true, result: "API Error: Repeated 529 Overloaded errors", session_id: "s" }),
    );
    expect(claudeAdapter.classify(outcome(events, 0))).toBe("capacity");
  });
});

describe("claude probes", () => {
  test("doctor data names the real commands", () => {
    expect(claudeAdapter.probes.auth).toEqual(["auth", "status"]);
    expect(claudeAdapter.probes.requiredFlags.map((f) => f.flag)).toEqual(
      expect.arrayContaining(["--strict-mcp-config", "--setting-sources", "--json-schema"]),
    );
    expect(deriveProvider(claudeAdapter.provider, undefined, undefined)?.provider ?? "unknown").toBe("anthropic");
  });
});

describe("claude per-message usage", () => {
  test("an assistant message's usage is scoped by its id, so its content blocks count it once", () => {
    const line = (id: string, block: unknown) =>
      JSON.stringify({
        type: "assistant",
        message: { id, model: "claude-opus-4-6", content: [block], usage: { input_tokens: 42, output_tokens: 1, cache_read_input_tokens: 0 } },
      });
    const events = [
      line("m1", { type: "text", text: "a" }),
      line("m1", { type: "tool_use", name: "Read", input: {} }),
      line("m2", { type: "text", text: "b" }),
    ].flatMap((l) => claudeAdapter.parse(l));
    expect(events.filter((e) => e.kind === "usage")).toEqual([
      { kind: "usage", scope: "m1", usage: { inputTokens: 42, outputTokens: 1, turns: 1 } },
      { kind: "usage", scope: "m1", usage: { inputTokens: 42, outputTokens: 1, turns: 1 } },
      { kind: "usage", scope: "m2", usage: { inputTokens: 42, outputTokens: 1, turns: 1 } },
    ]);
    expect(foldEvents(events).usage).toEqual({ inputTokens: 84, outputTokens: 2, turns: 2 });
  });
});

describe("claude rate_limit_event (issue 25)", () => {
  test("allowed / allowed_warning / rejected become quota windows; only the rate-limit fields are read", () => {
    const parseClaudeLine = (l: string) => claudeAdapter.parse(l);
    const line = (status: string, extra = {}) =>
      JSON.stringify({ type: "rate_limit_event", rate_limit_info: { status, resetsAt: 1_800_000_000, rateLimitType: "seven_day", ...extra }, session_id: "s" });
    expect(parseClaudeLine(line("allowed"))).toEqual([
      { kind: "quota", window: "seven_day", state: "ok", resetsAt: 1_800_000_000_000, source: "claude rate_limit_event" },
    ]);
    expect(parseClaudeLine(line("allowed_warning", { utilization: 0.9 }))).toEqual([
      { kind: "quota", window: "seven_day", state: "warning", usedPercent: 90, resetsAt: 1_800_000_000_000, source: "claude rate_limit_event" },
    ]);
    expect(parseClaudeLine(line("rejected"))[0]).toMatchObject({ state: "exhausted" });
    expect(parseClaudeLine(line("something_new"))).toEqual([]);
  });
});
