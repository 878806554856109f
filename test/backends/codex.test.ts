import { deriveProvider } from "../../src/config/providers.ts";
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { codexAdapter } from "../../src/backends/codex/index.ts";
import { codexHomeFor, codexModelFromRollout, codexRolloutDirFor, isCodexRolloutFor } from "../../src/backends/codex/machine.ts";
import { foldEvents } from "../../src/backends/fold.ts";
import type { AgentEvent, ExitOutcome, FailureClass, RunRequest } from "../../src/backends/contract.ts";

const FIXTURES = join(import.meta.dir, "..", "fixtures", "codex");

/** A real capture (research/transcripts) turned into what process/ would hand to classify(). */
function capture(name: string): ExitOutcome & { kinds: string[] } {
  const stdout = readFileSync(join(FIXTURES, `${name}.stdout`), "utf8");
  const stderr = readFileSync(join(FIXTURES, `${name}.stderr`), "utf8");
  const rc = /rc=(\d+)/.exec(readFileSync(join(FIXTURES, `${name}.meta`), "utf8"))?.[1];
  const lines = stdout.split("\n").filter((l) => l.trim() !== "");
  const events = lines.flatMap((l) => codexAdapter.parse(l));
  const raw = lines.filter((l) => codexAdapter.parse(l).length === 0 && !l.includes('"turn.started"'));
  return { exitCode: Number(rc), signal: null, events, stderrTail: stderr, rawStdoutTail: raw.join("\n"), kinds: events.map((e) => e.kind) };
}

const base: RunRequest = { mode: "route", prompt: "fix the bug", cwd: "/work/repo" };

describe("codex invocation", () => {
  test("route mode: exec --json in the cwd with the entry's sandbox, the prompt on stdin (`-`), never in argv", () => {
    const inv = codexAdapter.invocation({ ...base, options: { sandbox: "danger-full-access" }, model: "gpt-5.5" });
    expect(inv.args).toEqual(["exec", "--json", "-C", "/work/repo", "-s", "danger-full-access", "-m", "gpt-5.5", "-"]);
    expect(inv.stdin).toBe("fix the bug");
  });

  test("a 300 KiB prompt: argv stays small (E2BIG is at 128 KiB per argument), the prompt is stdin", () => {
    const prompt = "x".repeat(300 * 1024);
    const inv = codexAdapter.invocation({ ...base, prompt });
    expect(inv.stdin).toBe(prompt);
    expect(inv.args.join(" ").length).toBeLessThan(200);
  });

  test("a custom provider from the config gets codex's own retry caps; built-in ones and answer mode never", () => {
    const caps = ["-c", "model_providers.fake.request_max_retries=0", "-c", "model_providers.fake.stream_max_retries=1"];
    const route = codexAdapter.invocation({ ...base, configuredProvider: "fake" }).args;
    expect(route.slice(route.indexOf("-s") + 2, route.indexOf("-s") + 6)).toEqual(caps);
    for (const builtIn of ["openai", "ollama", "lmstudio"])
      expect(codexAdapter.invocation({ ...base, configuredProvider: builtIn }).args.join(" ")).not.toContain("max_retries");
    expect(codexAdapter.invocation({ ...base, configuredProvider: "bad name]" }).args.join(" ")).not.toContain("max_retries");
    expect(codexAdapter.invocation({ ...base, mode: "answer", configuredProvider: "fake" }).args.join(" ")).not.toContain("max_retries");
    expect(codexAdapter.invocation({ ...base, configuredProvider: "fake", resumeSessionId: "t1" }).args.slice(-3)).toEqual(["resume", "t1", "-"]);
  });

  test("the provider is read from the repo's .codex/config.toml before the home one, and only in route mode", () => {
    const files = codexAdapter.providerConfigFiles?.({ env: { CODEX_HOME: "/h/.codex" }, home: "/h", cwd: "/work/repo", mode: "route" }) ?? [];
    expect(files).toEqual([
      { path: "/work/repo/.codex/config.toml", format: "toml", key: "model_provider" },
      { path: "/h/.codex/config.toml", format: "toml", key: "model_provider" },
    ]);
    expect(codexAdapter.providerConfigFiles?.({ env: {}, home: "/h", mode: "answer" })).toEqual([]);
  });

  test("route mode defaults to workspace-write and keeps codex's git guard", () => {
    const inv = codexAdapter.invocation(base);
    expect(inv.args).toContain("workspace-write");
    expect(inv.args).not.toContain("--skip-git-repo-check");
    expect(inv.args).not.toContain("-m");
  });

  /** Approvals never asked, shell/unified exec and subagents off: the model is offered no command tool. */
  const ANSWER_KEYS = [
    "-c",
    'approval_policy="never"',
    "-c",
    "features.shell_tool=false",
    "-c",
    "features.unified_exec=false",
    "-c",
    "features.multi_agent=false",
    "-c",
    "features.multi_agent_v2=false",
    "-c",
    'web_search="disabled"',
  ];

  test("answer mode with web: the hosted web_search tool is offered (live), nothing else changes", () => {
    const inv = codexAdapter.invocation({ ...base, mode: "answer", web: true });
    expect(inv.args).toContain('web_search="live"');
    expect(inv.args).not.toContain('web_search="disabled"');
    expect(inv.args).toContain("features.shell_tool=false");
    expect(codexAdapter.invocation({ ...base, mode: "route", web: true }).args.join(" ")).not.toContain("web_search");
  });

  test("answer mode: read-only, user config and rules ignored, no command tools, native schema, never ephemeral", () => {
    const inv = codexAdapter.invocation({ ...base, mode: "answer", options: { sandbox: "danger-full-access" }, outputSchemaPath: "/tmp/s.json" });
    expect(inv.args).toEqual([
      "exec",
      "--json",
      "--skip-git-repo-check",
      "--ignore-user-config",
      "--ignore-rules",
      "-C",
      "/work/repo",
      "-s",
      "read-only",
      ...ANSWER_KEYS,
      "--output-schema",
      "/tmp/s.json",
      "-",
    ]);
    expect(inv.args).not.toContain("--ephemeral");
  });

  test("resume: global flags before `resume <id>`, sandbox as a -c key (exec resume refuses -s/-C)", () => {
    const inv = codexAdapter.invocation({ ...base, mode: "answer", resumeSessionId: "01a2-id", model: "gpt-5.5", outputSchemaPath: "/s.json" });
    expect(inv.args).toEqual([
      "exec",
      "--json",
      "--skip-git-repo-check",
      "--ignore-user-config",
      "--ignore-rules",
      "-c",
      'sandbox_mode="read-only"',
      "-m",
      "gpt-5.5",
      ...ANSWER_KEYS,
      "--output-schema",
      "/s.json",
      "resume",
      "01a2-id",
      "-",
    ]);
    expect(inv.args).not.toContain("-s");
    expect(inv.args).not.toContain("-C");
  });

  test("a prompt that looks like a flag or a subcommand stays a prompt: it is never parsed as argv", () => {
    for (const prompt of ["resume", "--help me", "-"]) {
      const inv = codexAdapter.invocation({ ...base, prompt });
      expect(inv.args.at(-1)).toBe("-");
      expect(inv.stdin).toBe(prompt);
    }
  });

  test("no secrets or env additions", () => {
    expect(codexAdapter.invocation(base).env).toBeUndefined();
  });
});

describe("codex parse over real 0.171.0 captures", () => {
  test("plain success: session, text, usage, final", () => {
    const run = capture("codex-fake-gpt55-basic");
    expect(run.kinds).toEqual(["session", "text", "usage", "final"]);
    const folded = foldEvents(run.events);
    expect(folded.sessionId).toBe("01a22774-a389-75c2-80e7-7d4f09cb41b6");
    expect(folded.text).toBe("PONG-FROM-FAKE");
    expect(folded.usage).toEqual({ inputTokens: 42, outputTokens: 7, cachedInputTokens: 0 });
    expect(folded.acted).toBe(false);
  });

  test("shell command: acting tool start/end with exit code", () => {
    const tools = capture("codex-fake-tool-readonly").events.filter((e) => e.kind === "tool");
    expect(tools).toEqual([
      { kind: "tool", name: "shell", detail: "/bin/bash -lc 'echo hello-from-tool'", phase: "start", acts: true },
      { kind: "tool", name: "shell", detail: "/bin/bash -lc 'echo hello-from-tool'", phase: "end", acts: true, exitCode: 0 },
    ]);
    expect(capture("codex-fake-cmd-exit3").events).toContainEqual(expect.objectContaining({ kind: "tool", exitCode: 3 }));
  });

  test("file change, reasoning, web search, MCP call", () => {
    const patch = capture("codex-fake-patch-workspace-write");
    expect(patch.kinds).toEqual(["session", "tool", "tool", "file_change", "text", "usage", "final"]);
    expect(foldEvents(patch.events).acted).toBe(true);
    expect(capture("codex-fake-reasoning").events).toContainEqual({ kind: "thinking", text: "**Thinking about PONG**\n\nThe user wants a pong." });
    const search = capture("codex-fake-web-search").events.filter((e) => e.kind === "tool");
    expect(search.every((e) => e.kind === "tool" && !e.acts && e.detail === "pong protocol" && e.web === "search")).toBe(true);
    const opened = codexAdapter.parse(
      JSON.stringify({
        type: "item.started",
        item: { id: "item_0", type: "web_search", query: "", action: { type: "open_page", url: "https://example.org/a" } },
      }),
    );
    expect(opened).toEqual([{ kind: "tool", name: "web_search", phase: "start", acts: false, detail: "https://example.org/a", web: "fetch" }]);
    expect(capture("codex-fake-mcp-call-bypass").events).toContainEqual({ kind: "tool", name: "mcp:echo/echo", phase: "end", acts: true });
  });

  test("output schema: the agent_message text is the JSON answer", () => {
    expect(foldEvents(capture("codex-fake-output-schema").events).text).toBe('{"answer":"PONG"}');
  });

  test("Reconnecting notices are retries; the last error and turn.failed are final", () => {
    const run = capture("codex-fake-fail-429");
    expect(run.kinds).toEqual(["session", "retry", "retry", "retry", "retry", "retry", "error", "final"]);
    expect(run.events.at(-1)).toMatchObject({ kind: "final", ok: false });
    expect(run.events.filter((e) => e.kind === "retry").every((e) => e.kind === "retry" && e.failure === "capacity")).toBe(true);
  });

  test("a patch the sandbox rejected shows only on stderr (codex-fake-patch-readonly): it is a refusal; other stderr is nothing", () => {
    const line =
      "2026-11-29T13:18:11.511422Z ERROR codex_core::tools::router: error=patch rejected: writing is blocked by read-only sandbox; rejected by user approval settings";
    expect(codexAdapter.parseStderr?.(line)).toEqual([
      { kind: "refusal", tool: "apply_patch", message: "patch rejected: writing is blocked by read-only sandbox; rejected by user approval settings" },
    ]);
    for (const other of [
      "Reading additional input from stdin...",
      "2026-11-29T13:38:57.781363Z ERROR codex_api::endpoint::responses_websocket: failed to connect to Responses WebSocket stage=Unknown",
    ])
      expect(codexAdapter.parseStderr?.(other)).toEqual([]);
  });

  test("a retry notice says what it retries, from its parenthesis", () => {
    const notice = (message: string) => codexAdapter.parse(JSON.stringify({ type: "error", message }))[0];
    expect(notice("Reconnecting... 1/5 (exceeded retry limit, last status: 429 Too Many Requests)")).toMatchObject({ kind: "retry", failure: "capacity" });
    expect(
      notice(
        "Reconnecting... 1/5 (unexpected status 503 Service Unavailable: The server is overloaded. Please try again later., url: http://127.0.0.1:1/v1/responses)",
      ),
    ).toMatchObject({ failure: "capacity" });
    expect(notice("Reconnecting... 2/5 (Selected model is at capacity. Please try a different model.)")).toMatchObject({ failure: "capacity" });
    expect(notice("Reconnecting... 2/5 (stream disconnected before completion: failed to lookup address information: Name does not resolve)")).toMatchObject({
      failure: "transport",
    });
    expect(notice("Reconnecting... waiting for network (Connection failed: error sending request)")).toMatchObject({ hopeless: true, failure: "transport" });
    // A 401 is retried too, but it is no capacity loop: auth is read from the final error.
    expect(notice("Reconnecting... 1/5 (unexpected status 401 Unauthorized: Missing bearer or basic authentication in header)")).toEqual({
      kind: "retry",
      message: "Reconnecting... 1/5 (unexpected status 401 Unauthorized: Missing bearer or basic authentication in header)",
    });
  });

  test("non-fatal error items are warnings, not retries, and a reroute reveals the model", () => {
    expect(capture("codex-fake-custom-provider-basic").kinds).toEqual(["session", "warning", "text", "usage", "final"]);
    const line = JSON.stringify({
      type: "item.completed",
      item: { id: "item_0", type: "error", message: "model rerouted: gpt-5.5 -> gpt-5.1-codex-mini (capacity)" },
    });
    const events = codexAdapter.parse(line);
    expect(events[0]).toEqual({ kind: "model", model: "gpt-5.1-codex-mini" });
    expect(events[1]?.kind).toBe("warning");
  });

  test("garbage never throws", () => {
    for (const line of ["", "not json", "{", "[1,2]", "null", '{"type":"item.completed"}', '{"type":"item.completed","item":{"type":"agent_mess']) {
      expect(codexAdapter.parse(line)).toEqual([]);
    }
  });
});

describe("codex classify over real captures", () => {
  const cases: [string, FailureClass | undefined][] = [
    ["codex-fake-gpt55-basic", undefined],
    ["codex-fake-tool-readonly", undefined],
    ["codex-fake-fail-429", "capacity"],
    ["codex-fake-fail-429-natural-backoff", "capacity"],
    ["codex-fake-fail-USAGE_LIMIT", "capacity"],
    ["codex-fake-fail-OVERLOADED", "capacity"],
    ["codex-fake-fail-500", "capacity"],
    ["codex-fake-fail-401", "auth"],
    ["codex-fake-noauth-openai_base_url", "auth"],
    ["codex-fake-fail-400", "task_failed"],
    ["codex-fake-fail-404", "task_failed"],
    ["codex-exec-noauth-nogit", "task_failed"],
    ["codex-fake-resume-bogus-id", "task_failed"],
    // Killed by `timeout` while "waiting for network": never a verdict, but clearly offline.
    ["codex-exec-noauth-json", "transport"],
  ];
  for (const [name, expected] of cases) {
    test(`${name} → ${String(expected)}`, () => {
      expect(codexAdapter.classify(capture(name))).toBe(expected);
    });
  }

  const outcome = (events: AgentEvent[], exitCode: number | null, extra: Partial<ExitOutcome> = {}): ExitOutcome => ({
    exitCode,
    signal: null,
    events,
    stderrTail: "",
    rawStdoutTail: "",
    ...extra,
  });

  test("a completed turn without any answer is empty_answer", () => {
    expect(
      codexAdapter.classify(
        outcome(
          [
            { kind: "session", sessionId: "x" },
            { kind: "final", ok: true },
          ],
          0,
        ),
      ),
    ).toBe("empty_answer");
  });

  test("missing binary is not_installed", () => {
    expect(codexAdapter.classify(outcome([], 127))).toBe("not_installed");
    expect(codexAdapter.classify(outcome([], null, { stderrTail: "spawn codex ENOENT" }))).toBe("not_installed");
  });

  test("no terminal record: garbage or a bare exit 0 is bad_output, a crash is task_failed", () => {
    expect(codexAdapter.classify(outcome([{ kind: "session", sessionId: "x" }], 0, { rawStdoutTail: '{"type":"turn' }))).toBe("bad_output");
    expect(codexAdapter.classify(outcome([{ kind: "session", sessionId: "x" }], 0))).toBe("bad_output");
    expect(codexAdapter.classify(outcome([{ kind: "session", sessionId: "x" }, { kind: "thinking" }], null, { signal: "SIGSEGV" }))).toBe("task_failed");
  });
});

describe("codex rollout helpers", () => {
  const rollout = [
    { timestamp: "t", ordinal: 0, type: "session_meta", payload: { session_id: "id1", cwd: "/w", originator: "codex_exec", model_provider: "openai" } },
    { timestamp: "t", ordinal: 1, type: "event_msg", payload: { type: "thread_settings_applied", thread_settings: { model: "gpt-5.5" } } },
    { timestamp: "t", ordinal: 2, type: "turn_context", payload: { cwd: "/w", model: "gpt-5.5" } },
    { timestamp: "t", ordinal: 3, type: "turn_context", payload: { cwd: "/w", model: "gpt-5.1-codex-mini" } },
  ]
    .map((l) => JSON.stringify(l))
    .join("\n");

  test("the latest turn_context model wins; settings are the fallback; garbage is tolerated", () => {
    expect(codexModelFromRollout(rollout)).toBe("gpt-5.1-codex-mini");
    expect(
      codexModelFromRollout(
        `${JSON.stringify({ type: "event_msg", payload: { type: "thread_settings_applied", thread_settings: { model: "o3" } } })}\nnot json`,
      ),
    ).toBe("o3");
    expect(codexModelFromRollout("garbage\n{")).toBeUndefined();
  });

  test("location: $CODEX_HOME or ~/.codex, sessions/YYYY/MM/DD by local date, rollout-<time>-<id>.jsonl", () => {
    expect(codexHomeFor({ CODEX_HOME: "/c" }, "/home/u")).toBe("/c");
    expect(codexHomeFor({}, "/home/u")).toBe("/home/u/.codex");
    expect(codexRolloutDirFor("/c", new Date(2026, 10, 9, 23, 59))).toBe("/c/sessions/2026/11/09");
    expect(isCodexRolloutFor("rollout-2026-11-29T13-17-47-01a22774-5dfa-7dd1-b257-2654a3eb3122.jsonl", "01a22774-5dfa-7dd1-b257-2654a3eb3122")).toBe(true);
    expect(isCodexRolloutFor("rollout-2026-11-29T13-17-47-other.jsonl", "01a22774")).toBe(false);
  });
});

describe("codex probes", () => {
  test("doctor data names the real commands", () => {
    expect(codexAdapter.probes.auth).toEqual(["login", "status"]);
    expect(codexAdapter.probes.help).toEqual(["exec", "--help"]);
    expect(codexAdapter.probes.requiredFlags.map((f) => f.flag)).toContain("--output-schema");
    expect(deriveProvider(codexAdapter.provider, "gpt-5.5", undefined)?.provider ?? "unknown").toBe("openai");
    expect(codexAdapter.supportsResume).toBe(true);
  });
});
