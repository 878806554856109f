/**
 * The agy backend's pure parts, against the lines research/cli-agy.md quotes verbatim (Google's
 * headless page sample, third-party captures of 1.1.10–1.2.17). No real agy ran here.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { agyAdapter } from "../../src/backends/agy/index.ts";
import { agyPrintTimeout } from "../../src/backends/agy/invocation.ts";
import { AGY_MIN_VERSION } from "../../src/backends/agy/variant.ts";
import { goDurationSec } from "../../src/backends/agy/failure-text.ts";
import type { AgentEvent, ExitOutcome, RunRequest } from "../../src/backends/contract.ts";
import { foldEvents } from "../../src/backends/fold.ts";

const SAMPLE = join(import.meta.dir, "..", "..", "fakes", "scenarios", "agy", "docs-sample.jsonl");
const base: RunRequest = { mode: "route", prompt: "-- refactor the parser", cwd: "/work/proj" };
const ID = "c3b66b04-872b-4fbe-a3a4-058a026ef20a";
const kinds = (events: AgentEvent[]) => events.map((e) => e.kind);

/** An outcome from stdout lines, as the runner hands it to classify(). */
function outcome(lines: string[], exitCode: number | null, stderrTail = "", signal: string | null = null): ExitOutcome {
  return {
    exitCode,
    signal,
    events: lines.flatMap((l) => agyAdapter.parse(l)),
    stderrTail,
    rawStdoutTail: lines.filter((l) => !l.trim().startsWith("{")).join("\n"),
  };
}

const init = (extra = "") =>
  `{"event":"init","conversation_id":"${ID}","init":{"cwd":"/w","tools":["run_command"],"permission_mode":"request-review"${extra}}}`;
const result = (body: string) =>
  `{"event":"result","result":{"conversation_id":"${ID}",${body},"duration_seconds":1.34,"num_turns":1,"usage":{"input_tokens":16340,"output_tokens":95,"thinking_tokens":89,"cache_read_tokens":0,"total_tokens":16435}}}`;
const PONG = result('"status":"SUCCESS","response":"PONG\\n"');
const step = (fields: string) => `{"event":"step_update","step_update":{"conversation_id":"${ID}",${fields}}}`;

describe("agy invocation", () => {
  test("route: stream-json, the repo as workspace, prompt on stdin, never skip-permissions", () => {
    const inv = agyAdapter.invocation({ ...base, model: "gemini-3.8-flash-high", timeoutSec: 900 });
    expect(inv.args).toEqual([
      "--output-format",
      "stream-json",
      "--disable-slash-commands",
      "--sandbox",
      "--print-timeout",
      "900s",
      "--model",
      "gemini-3.8-flash-high",
      "--add-dir",
      "/work/proj",
    ]);
    expect(inv.stdin).toBe(base.prompt);
    expect(inv.args).not.toContain("-p");
    expect(inv.args).not.toContain("--dangerously-skip-permissions");
    expect(inv.args).not.toContain("--effort");
    expect(inv.env).toEqual({ AGY_CLI_DISABLE_AUTO_UPDATE: "true", AGY_GATEWAY_URL: undefined, AGY_ADC_AUTH: undefined, CLOUD_CODE_URL: undefined });
  });

  test("answer: no workspace, the envelope schema, a private log file, --conversation, the person's HOME kept", () => {
    const inv = agyAdapter.invocation({
      ...base,
      mode: "answer",
      resumeSessionId: ID,
      outputSchemaPath: "/tmp/iso/envelope.schema.json",
      isolatedHome: "/tmp/iso",
      timeoutSec: 180,
    });
    expect(inv.args).toEqual([
      "--output-format",
      "stream-json",
      "--disable-slash-commands",
      "--sandbox",
      "--print-timeout",
      "180s",
      "--conversation",
      ID,
      "--json-schema",
      "/tmp/iso/envelope.schema.json",
      "--log-file",
      "/tmp/iso/agy.log",
    ]);
    expect(inv.args).not.toContain("--add-dir");
    expect(inv.env?.HOME).toBeUndefined();
    expect(inv.args.join(" ")).not.toContain(base.prompt);
  });

  test.each([
    [undefined, "2562047h"],
    [0, "2562047h"],
    [-5, "2562047h"],
    [0.2, "1s"],
    [299.5, "300s"],
    [3600, "3600s"],
  ] as const)("--print-timeout for a budget of %p s is %p (never 0: on 1.1.x that times out at once)", (sec, flag) => {
    expect(agyPrintTimeout(sec)).toBe(flag);
  });

  test("every flag passed is a required flag the doctor checks; probes, resume, provider, install dir", () => {
    const flags = agyAdapter.probes.requiredFlags.map((f) => f.flag);
    const both = [
      ...agyAdapter.invocation({ ...base, model: "m", timeoutSec: 60 }).args,
      ...agyAdapter.invocation({ ...base, mode: "answer", resumeSessionId: "s", outputSchemaPath: "/s", isolatedHome: "/h" }).args,
    ];
    for (const arg of both) if (arg.startsWith("--")) expect(flags).toContain(arg);
    expect(agyAdapter.probes.auth).toEqual(["models"]);
    expect(agyAdapter.probes.loginHint).toContain("agy");
    expect(agyAdapter.supportsResume).toBe(true);
    expect(agyAdapter.preflight).toBe(true);
    expect(agyAdapter.provider).toEqual({ kind: "fixed", provider: "google" });
    expect(agyAdapter.installDirs).toEqual([".local/bin"]);
    expect(agyAdapter.history).toContain("~/.gemini/antigravity-cli");
    expect(agyAdapter.mcpConfigFiles).toBeUndefined();
  });
});

describe("agy parse", () => {
  test("Google's own sample: session, text, per-step usage, final; the conversation-wide result usage is not re-added", () => {
    const events = readFileSync(SAMPLE, "utf8")
      .split("\n")
      .flatMap((l) => agyAdapter.parse(l));
    expect(kinds(events)).toEqual(["session", "text", "usage", "usage", "session", "final"]);
    const run = foldEvents(events);
    expect(run.sessionId).toBe(ID);
    expect(run.text).toBe("Git rebase destructively rewrites …");
    // 10302 + 116 input, 582 + 7 output: the step calls of this run (equal to result.usage on turn 1).
    expect(run.usage).toEqual({ inputTokens: 10418, outputTokens: 589, cachedInputTokens: 8113 });
    expect(run.models).toEqual([]);
  });

  test("a resumed turn counts only its own steps, although result.usage is cumulative", () => {
    const lines = [
      init(),
      step(
        '"step_index":9,"state":"DONE","step_type":"agent_response","text_delta":"ok","usage":{"input_tokens":278,"output_tokens":30,"thinking_tokens":0,"cache_read_tokens":30214,"total_tokens":308}',
      ),
      result('"status":"SUCCESS","response":"ok\\n","num_turns":2'),
    ];
    expect(foldEvents(lines.flatMap((l) => agyAdapter.parse(l))).usage).toEqual({ inputTokens: 278, outputTokens: 30, cachedInputTokens: 30214 });
  });

  test("init.model echoes --model: requested, not evidence", () => {
    expect(agyAdapter.parse(init(',"model":"gemini-3.6-flash-low"'))).toEqual([
      { kind: "session", sessionId: ID },
      { kind: "model", model: "gemini-3.6-flash-low", requested: true },
    ]);
  });

  test("ACTIVE fragments are deltas that form one reply; the final text is result.response without agy's newline", () => {
    const lines = [
      init(),
      step('"step_index":3,"state":"ACTIVE","step_type":"agent_response","text_delta":"Hello "'),
      step('"step_index":3,"state":"DONE","step_type":"agent_response","text_delta":"world\\n"'),
      result('"status":"SUCCESS","response":"Hello world\\n"'),
    ];
    const events = lines.flatMap((l) => agyAdapter.parse(l));
    expect(events.filter((e) => e.kind === "text")).toEqual([
      { kind: "text", text: "Hello ", delta: true },
      { kind: "text", text: "world\n", delta: true },
    ]);
    expect(foldEvents(events).text).toBe("Hello world");
  });

  test("tool steps: start on ACTIVE, end on DONE/ERROR, writes are file changes, reads do not act", () => {
    const run = step(
      '"step_index":4,"state":"DONE","step_type":"tool","tool_name":"run_command","duration_seconds":0.07,"tool_info":{"name":"run_command","parameters":{"CommandLine":"echo hello_headless_demo"},"output":"hello_headless_demo\\r\\n"}',
    );
    expect(agyAdapter.parse(run)).toEqual([{ kind: "tool", name: "run_command", phase: "end", acts: true, detail: "echo hello_headless_demo" }]);
    const denied = `{"event":"step_update","step_update":{"step_index":3,"state":"ERROR","step_type":"tool","tool_name":"run_command","tool_info":{"name":"run_command","parameters":{"CommandLine":"echo hello"},"error":{"type":"TOOL_ERROR","message":"User denied permission to run command:\\necho hello"}}}}`;
    expect(agyAdapter.parse(denied)).toEqual([
      { kind: "tool", name: "run_command", phase: "end", acts: true, detail: "User denied permission to run command:\necho hello" },
    ]);
    const write = (state: string) =>
      step(
        `"step_index":5,"state":"${state}","step_type":"tool","tool_name":"write_to_file","tool_info":{"name":"write_to_file","parameters":{"TargetFile":"/w/a.ts"}}`,
      );
    expect(agyAdapter.parse(write("ACTIVE"))).toEqual([{ kind: "tool", name: "write_to_file", phase: "start", acts: true, detail: "/w/a.ts" }]);
    expect(agyAdapter.parse(write("DONE"))).toContainEqual({ kind: "file_change", path: "/w/a.ts", change: "unknown" });
    const read = step(
      '"step_index":6,"state":"ACTIVE","step_type":"tool","tool_name":"view_file","tool_info":{"name":"view_file","parameters":{"AbsolutePath":"/w/a.ts"}}',
    );
    expect(agyAdapter.parse(read)).toEqual([{ kind: "tool", name: "view_file", phase: "start", acts: false, detail: "/w/a.ts" }]);
    const unknown = step('"step_index":7,"state":"ACTIVE","step_type":"tool","tool_name":"brand_new_tool"');
    expect(agyAdapter.parse(unknown)).toEqual([{ kind: "tool", name: "brand_new_tool", phase: "start", acts: true }]);
  });

  test("ERROR results: error + failed final, classed by their text; a failed run's empty id is no session", () => {
    const quota = `{"event":"result","result":{"conversation_id":"","status":"ERROR","response":"","error":"Individual quota reached. Please upgrade your subscription to increase your limits. Resets in 120h9m43s.","duration_seconds":0,"num_turns":1}}`;
    expect(agyAdapter.parse(quota)).toEqual([
      {
        kind: "error",
        message: "Individual quota reached. Please upgrade your subscription to increase your limits. Resets in 120h9m43s.",
        failure: "capacity",
      },
      { kind: "final", ok: false, message: "Individual quota reached. Please upgrade your subscription to increase your limits. Resets in 120h9m43s." },
    ]);
    expect(agyAdapter.parse(result('"status":"ERROR","error":"timeout waiting for response"'))[1]).toMatchObject({ kind: "error", failure: "timeout" });
    expect(agyAdapter.parse(result('"status":"CANCELED","response":""')).at(-1)).toEqual({
      kind: "final",
      ok: false,
      message: "agy ended the turn with status CANCELED",
    });
  });

  test("SUCCESS with an empty response and denied_actions is a failed final naming the permission", () => {
    const soft = result('"status":"SUCCESS","response":"","denied_actions":[{"action":"command","display_name":"RunCommand"}]');
    expect(agyAdapter.parse(soft).at(-1)).toEqual({
      kind: "final",
      ok: false,
      message: 'agy auto-denied "command": headless mode cannot ask for approval, and the turn ended with no answer',
    });
    const answered = result('"status":"SUCCESS","response":"done, but I could not run the tests\\n","denied_actions":[{"action":"command"}]');
    expect(agyAdapter.parse(answered).at(-1)).toEqual({ kind: "final", ok: true, text: "done, but I could not run the tests" });
  });

  test("--json-schema: structured_output is the answer", () => {
    const events = agyAdapter.parse(
      result('"status":"SUCCESS","response":"{\\"answer\\":\\"42\\"}\\n","structured_output":{"answer":"42"},"json_schema":{"type":"object"}'),
    );
    expect(foldEvents(events).structured).toEqual({ answer: "42" });
  });

  test("command_result, unknown events and steps, user_input, garbage: nothing", () => {
    for (const junk of [
      "",
      "PONG",
      "{",
      "[]",
      '{"event":"future_thing"}',
      '{"event":"command_result","command":{"name":"model","data":{"id":"gemini-3.8-flash-high"}}}',
      step('"step_index":0,"state":"DONE","step_type":"user_input"'),
      step('"step_index":1,"state":"DONE","step_type":"system_message"'),
      '{"event":"step_update"}',
      '{"event":"result"}',
    ])
      expect(agyAdapter.parse(junk)).toEqual([]);
    expect(agyAdapter.parse(step('"step_index":2,"state":"DONE","step_type":"error_message","text_delta":"hook failed"'))).toEqual([
      { kind: "retry", message: "hook failed" },
    ]);
  });
});

describe("agy classify (the signatures of research §4)", () => {
  const ok = [init(), PONG];
  const failed = (error: string) => [init(), result(`"status":"ERROR","response":"","error":${JSON.stringify(error)}`)];
  const QUOTA_ERR =
    'error: Individual quota reached. Please upgrade your subscription to increase your limits. Resets in 1h28m45s.\nAGY_ERROR: {"status":"RESOURCE_EXHAUSTED","error_code":429}\n';

  test.each([
    ["success", undefined, outcome(ok, 0)],
    ["structured answer, empty prose", undefined, outcome([init(), result('"status":"SUCCESS","response":"","structured_output":{"a":1}')], 0)],
    ["exit 127", "not_installed", outcome([], 127)],
    ["spawn ENOENT", "not_installed", outcome([], null, "spawn agy ENOENT")],
    ["≥1.2.6 quota: exit 3 + AGY_ERROR", "capacity", outcome(failed("Individual quota reached."), 3, QUOTA_ERR)],
    [
      "1.1.18 quota: exit 1 + ERROR envelope",
      "capacity",
      outcome(failed("Individual quota reached. Please upgrade your subscription to increase your limits. Resets in 120h9m43s."), 1),
    ],
    [
      "AGY_ERROR UNAUTHENTICATED (fixtures only)",
      "auth",
      outcome(failed("boom"), 3, 'AGY_ERROR: {"status":"UNAUTHENTICATED","code":401,"retryable":false}\u001b[0m trailing'),
    ],
    [
      "AGY_ERROR UNAVAILABLE with a network text",
      "transport",
      outcome(failed("dial tcp: lookup cloudcode-pa.googleapis.com: no such host"), 3, 'AGY_ERROR: {"status":"UNAVAILABLE","error_code":14,"retryable":true}'),
    ],
    [
      "AGY_ERROR UNAVAILABLE 503",
      "capacity",
      outcome(failed("The service is currently unavailable (503)."), 3, 'AGY_ERROR: {"status":"UNAVAILABLE","error_code":503}'),
    ],
    ["signed out, headless (DOC)", "auth", outcome([], 1, "Error: authentication required. Run 'agy' to log in, then retry.\n")],
    [
      "signed out, OAuth wait ran out (1.1.18)",
      "auth",
      outcome(
        [result('"status":"ERROR","error":"authentication failed or timed out"')],
        1,
        "Waiting for authentication (timeout 60s)...  Error: authentication timed out.\n",
      ),
    ],
    ["locked keyring", "auth", outcome([], 1, "Error: failed to retrieve token: secret keyring is locked\n")],
    ["1.1.x print timeout", "timeout", outcome(failed("timeout waiting for response"), 1, "Error: timeout waiting for response\n")],
    [
      "≥1.2.11 print timeout: exit 0, SUCCESS, partial",
      "timeout",
      outcome(
        [init(), result('"status":"SUCCESS","response":"half an ans\\n"')],
        0,
        "[agy] print timeout after 8s with turn in progress; returning partial output\n",
      ),
    ],
    [
      "soft-deny with denied_actions",
      "task_failed",
      outcome(
        [init(), result('"status":"SUCCESS","response":"","denied_actions":[{"action":"command","display_name":"RunCommand"}]')],
        0,
        'jetski: no output produced — a tool required the "command" permission that headless mode cannot prompt for, so it was auto-denied.',
      ),
    ],
    [
      "soft-deny on 1.1.10: SUCCESS, empty, no denied_actions",
      "task_failed",
      outcome(
        [init(), result('"status":"SUCCESS","response":""')],
        0,
        'jetski: no output produced — a tool required the "read_url" permission that headless mode cannot prompt for, so it was auto-denied.',
      ),
    ],
    ["soft-deny on 1.1.18: CANCELED", "task_failed", outcome([init(), result('"status":"CANCELED","response":""')], 0)],
    ["empty SUCCESS without a denial", "empty_answer", outcome([init(), result('"status":"SUCCESS","response":""')], 0)],
    ["unknown conversation: warning, new id, exit 0", "task_failed", outcome(ok, 0, `warning: conversation "${ID}" not found\n`)],
    [
      "unknown model envelope",
      "task_failed",
      outcome(
        [
          result(
            '"status":"ERROR","response":"","error":"invalid model selection (--model \\"does-not-exist-model\\" --effort \\"\\"): model does-not-exist-model is not recognized as a known model or custom model in settings\\nAvailable models:\\n  Gemini 3.6 Flash (High)"',
          ),
        ],
        1,
      ),
    ],
    ["unknown flag: Go usage, exit 2", "task_failed", outcome([], 2, "flag provided but not defined: -yolo\nUsage of agy:\n")],
    ["Go panic, exit 2", "task_failed", outcome([init()], 2, "panic: runtime error: invalid memory address or nil pointer dereference\n")],
    ["killed mid-turn (SIGINT/SIGTERM: context canceled)", "task_failed", outcome(failed("context canceled"), 1)],
    ["killed by a signal, no result", "task_failed", outcome([init()], null, "", "SIGKILL")],
    ["exit 0, no result line", "bad_output", outcome([init(), "this is not json"], 0)],
    ["pre-1.1.1: exit 0 and not a byte on the pipe (#76)", "bad_output", outcome([], 0)],
    ["TUI text on stdout, exit 1", "bad_output", outcome(["Error: the interactive UI needs a terminal"], 1)],
  ] as const)("%s → %p", (_name, expected, o) => {
    expect(agyAdapter.classify(o)).toBe(expected);
  });

  test("a silent exit 0 is never read as an empty answer, and explain names the version needed", () => {
    const silent = outcome([], 0);
    expect(agyAdapter.classify(silent)).not.toBe("empty_answer");
    expect(agyAdapter.explain?.(silent)).toContain(`agy ${AGY_MIN_VERSION} or newer`);
  });

  test.each([
    ["[agy] print timeout after 2m30s with turn in progress; returning partial output", "--print-timeout (2m30s)"],
    [`warning: conversation "${ID}" not found`, `no longer has conversation ${ID}`],
    ['jetski: no output produced — a tool required the "command" permission that headless mode cannot prompt for', 'the "command" permission'],
    ["flag provided but not defined: -output-format\nUsage of agy:", "(-output-format)"],
  ])("explain: %s", (stderr, expected) => {
    expect(agyAdapter.explain?.(outcome([init()], 0, stderr))).toContain(expected);
  });

  test("explain: the unknown model names the slug and `agy models`; plain failures say nothing more", () => {
    const bad = outcome(
      [
        result(
          '"status":"ERROR","response":"","error":"invalid model selection (--model \\"gemini-3.7-flash\\" --effort \\"\\"): model gemini-3.7-flash is not recognized as a known model or custom model in settings"',
        ),
      ],
      1,
    );
    expect(agyAdapter.explain?.(bad)).toContain('model "gemini-3.7-flash"');
    expect(agyAdapter.explain?.(bad)).toContain("agy models");
    expect(agyAdapter.explain?.(outcome(ok, 0))).toBeUndefined();
    expect(agyAdapter.explain?.(outcome(failed("Individual quota reached."), 3, QUOTA_ERR))).toBeUndefined();
  });
});

describe("agy stderr: the quota's reset is the provider's retry-after", () => {
  test("`Resets in 1h28m45s` → a capacity retry of 5325 s and an exhausted quota; anything else → nothing", () => {
    const parse = (line: string) => agyAdapter.parseStderr?.(line) ?? [];
    expect(parse("error: Individual quota reached. Please upgrade your subscription to increase your limits. Resets in 1h28m45s.")).toEqual([
      { kind: "retry", message: expect.stringContaining("Individual quota reached"), failure: "capacity", retryAfterSec: 5325 },
      { kind: "quota", window: "individual", state: "exhausted", resetsInSec: 5325, source: "agy failure text" },
    ]);
    expect(parse("error: Individual quota reached. Contact your administrator to enable overages. Resets in 120h9m43s.")[0]).toMatchObject({
      retryAfterSec: 432583,
    });
    expect(parse('AGY_ERROR: {"status":"RESOURCE_EXHAUSTED","error_code":429}')).toEqual([]);
    expect(parse("[agy] print timeout after 5m0s with turn in progress; returning partial output")).toEqual([]);
  });

  test("Go durations", () => {
    expect(goDurationSec("5m0s")).toBe(300);
    expect(goDurationSec("1.5s")).toBe(1.5);
    expect(goDurationSec("500ms")).toBe(0.5);
    expect(goDurationSec("soon")).toBeUndefined();
  });
});

describe("agy version gate (variant probe)", () => {
  const variant = agyAdapter.variant;
  const read = (stdout: string) => variant?.read({ exitCode: 0, stdout, stderr: "" });

  test("reads the bare semver, a banner, or nothing", () => {
    expect(variant?.argv).toEqual(["--version"]);
    expect(read("1.2.17\n")).toBe("1.2.17");
    expect(read("Antigravity CLI 1.1.18")).toBe("1.1.18");
    expect(read("")).toBe("unknown");
    expect(variant?.read({ exitCode: 2, stdout: "", stderr: "flag provided but not defined: -version" })).toBe("unknown");
  });

  test.each([
    ["1.0.0", "writes nothing to a pipe"],
    ["1.0.16", "writes nothing to a pipe"],
    ["1.1.1", "no --output-format stream-json"],
    ["1.1.8", "lacks flags orchestrate passes"],
    ["1.1.9", "--disable-slash-commands"],
    ["unknown", "printed no version number"],
  ])("%s is refused (%s), naming the version needed", (version, why) => {
    const refuse = variant?.traits(version).refuse ?? "";
    expect(refuse).toContain(why);
    expect(refuse).toContain(`agy ${AGY_MIN_VERSION} or newer`);
    expect(refuse).toContain("agy update");
  });

  test.each(["1.1.10", "1.1.18", "1.2.6", "1.2.17", "2.0.0"])("%s is driven", (version) => {
    expect(variant?.traits(version)).toEqual({});
  });
});

describe("agy readiness, models, client, registration", () => {
  test("`agy models`: exit 0 is signed in; the sign-in text is not; other failures are unknown", () => {
    expect(agyAdapter.readiness?.({ exitCode: 0, stdout: "gemini-3.8-flash-high\tGemini 3.8 Flash (High)\n", stderr: "" }, {})).toBe("ready");
    expect(
      agyAdapter.readiness?.(
        { exitCode: 1, stdout: "", stderr: "Error: Please sign in to view available models. Launch the CLI without arguments to sign in." },
        {},
      ),
    ).toBe("not_ready");
    expect(agyAdapter.readiness?.({ exitCode: 1, stdout: "", stderr: "Error: failed to retrieve token: secret keyring is locked" }, {})).toBe("not_ready");
    expect(agyAdapter.readiness?.({ exitCode: 1, stdout: "", stderr: "dial tcp: i/o timeout" }, {})).toBe("unknown");
  });

  test("models are the slugs of `agy models`; the wizard refuses a gemini base name without its effort", () => {
    expect(agyAdapter.models?.argv(undefined)).toEqual(["models"]);
    expect(agyAdapter.models?.read("gemini-3.8-flash-high\tGemini 3.8 Flash (High)\nclaude-sonnet-4-6\tClaude Sonnet 4.6\n\n")).toEqual([
      "gemini-3.8-flash-high",
      "claude-sonnet-4-6",
    ]);
    expect(agyAdapter.models?.read("Error: Please sign in to view available models.")).toEqual([]);
    for (const ok of ["gemini-3.8-flash-high", "gemini-3.1-pro-low", "claude-opus-4-6-thinking", "gpt-oss-120b-medium"])
      expect(agyAdapter.wizard?.validModel?.(ok)).toBe(true);
    for (const bad of ["gemini-3.7-flash", "", "two words"]) expect(agyAdapter.wizard?.validModel?.(bad)).toBe(false);
  });

  test("as an MCP host: its names and its ~180 s tool-call limit; registration in ~/.gemini/config/mcp_config.json", () => {
    expect(agyAdapter.client?.names.test("antigravity")).toBe(true);
    expect(agyAdapter.client?.names.test("agy")).toBe(true);
    expect(agyAdapter.client?.names.test("gemini-cli")).toBe(false);
    expect(agyAdapter.client?.requestTimeoutSec).toBe(180);
    expect(agyAdapter.registration?.({ name: "orchestrate", self: ["/opt/orchestrate", "serve"], env: {}, home: "/home/me" })).toEqual({
      kind: "file",
      file: "/home/me/.gemini/config/mcp_config.json",
      path: ["mcpServers", "orchestrate"],
      entry: { command: "/opt/orchestrate", args: ["serve"], env: { ORCHESTRATE_HOST_RUNTIME: "agy" } },
    });
    expect(agyAdapter.risks?.({ id: "ag", options: {} })[0]?.message).toContain("MCP servers");
    expect(agyAdapter.traits).toEqual({
      usage: { tokens: "streamed", cost: "none", turns: "none" },
      identity: "none",
      resumedUsage: "per-turn",
      containment: "permission-mode",
    });
  });
});
