import { deriveProvider } from "../../src/config/providers.ts";
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { opencodeAdapter } from "../../src/backends/opencode/index.ts";
import { opencodeAnswerConfig } from "../../src/backends/opencode/invocation.ts";
import { opencodeExportArgv, opencodeModelFromExport } from "../../src/backends/opencode/machine.ts";
import type { AgentEvent, ExitOutcome, RunRequest } from "../../src/backends/contract.ts";

const FIX = join(import.meta.dir, "..", "fixtures", "opencode");
const base: RunRequest = { mode: "route", prompt: "fix the failing test --now", cwd: "/work/proj" };

/** A real capture → the outcome process/ would have built (rc from .meta, non-JSON stdout lines). */
function outcome(name: string): ExitOutcome {
  const stdout = readFileSync(join(FIX, `${name}.stdout`), "utf8");
  const meta = readFileSync(join(FIX, `${name}.meta`), "utf8");
  const lines = stdout.split("\n").filter((l) => l.trim() !== "");
  return {
    exitCode: Number(/rc[:=] ?(\d+)/.exec(meta)?.[1]),
    signal: null,
    events: lines.flatMap((l) => opencodeAdapter.parse(l)),
    stderrTail: readFileSync(join(FIX, `${name}.stderr`), "utf8"),
    rawStdoutTail: lines.filter((l) => !l.startsWith("{")).join("\n"),
  };
}

const kinds = (events: AgentEvent[]) => events.map((e) => e.kind);

describe("opencode invocation", () => {
  test("route: json stream, cwd, model, prompt on stdin only, no auto-approve, user config kept", () => {
    const inv = opencodeAdapter.invocation({ ...base, model: "anthropic/claude-sonnet-4-5" });
    expect(inv.args).toEqual(["run", "--format", "json", "--print-logs", "--log-level", "ERROR", "--dir", "/work/proj", "-m", "anthropic/claude-sonnet-4-5"]);
    expect(inv.stdin).toBe(base.prompt);
    expect(inv.env).toBeUndefined();
    expect(inv.args).not.toContain("--auto");
  });

  test("answer: --pure, isolated config home, read-only permissions, no MCP, resume with -s", () => {
    const inv = opencodeAdapter.invocation({ ...base, mode: "answer", model: "openai/gpt-5", isolatedHome: "/tmp/iso", resumeSessionId: "ses_abc" });
    expect(inv.args).toContain("--pure");
    expect(inv.args.slice(-2)).toEqual(["-s", "ses_abc"]);
    expect(inv.args.join(" ")).not.toContain(base.prompt);
    expect(inv.env?.XDG_CONFIG_HOME).toBe("/tmp/iso");
    expect(inv.env?.OPENCODE_DISABLE_PROJECT_CONFIG).toBe("true");
    for (const key of ["OPENCODE_CONFIG", "OPENCODE_CONFIG_DIR", "OPENCODE_PERMISSION"]) {
      expect(Object.hasOwn(inv.env ?? {}, key)).toBe(true);
      expect(inv.env?.[key]).toBeUndefined();
    }
    const config = JSON.parse(inv.env?.OPENCODE_CONFIG_CONTENT ?? "{}");
    expect(config.permission).toMatchObject({ "*": "deny", edit: "deny", bash: "deny", webfetch: "deny", read: "allow" });
    expect(config.mcp).toEqual({});
    expect(config.small_model).toBe("openai/gpt-5");
  });

  test("answer with web granted allows webfetch and websearch, and still nothing that acts", () => {
    const config = JSON.parse(opencodeAdapter.invocation({ ...base, mode: "answer", web: true }).env?.OPENCODE_CONFIG_CONTENT ?? "{}");
    expect(config.permission).toMatchObject({ "*": "deny", edit: "deny", bash: "deny", task: "deny", webfetch: "allow", websearch: "allow" });
    expect(opencodeAdapter.web?.tools).toBe("webfetch, websearch");
  });

  test("answer without a model or isolated home leaves those out", () => {
    const inv = opencodeAdapter.invocation({ ...base, mode: "answer" });
    expect(inv.args).not.toContain("-m");
    expect(inv.env && "XDG_CONFIG_HOME" in inv.env).toBe(false);
    expect(JSON.parse(opencodeAnswerConfig(undefined)).model).toBeUndefined();
  });
});

describe("opencode web calls", () => {
  test("a real webfetch (1.18.33) is one web call: its URL as the detail, counted once as a start", () => {
    const o = outcome("fake-webfetch-run-json");
    const web = o.events.filter((e) => e.kind === "tool" && e.web);
    expect(web).toEqual([
      { kind: "tool", name: "webfetch", acts: false, web: "fetch", detail: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/pong-page$/), phase: "start" },
      { kind: "tool", name: "webfetch", acts: false, web: "fetch", detail: expect.stringMatching(/\/pong-page$/), phase: "end" },
    ]);
    expect(opencodeAdapter.classify(o)).toBeUndefined();
  });

  test("websearch carries its query", () => {
    const line = JSON.stringify({
      type: "tool_use",
      part: { type: "tool", tool: "websearch", state: { status: "completed", input: { query: "pong protocol" }, title: 'Exa "pong protocol"' } },
    });
    expect(opencodeAdapter.parse(line)[0]).toMatchObject({ kind: "tool", web: "search", detail: "pong protocol", phase: "start" });
  });
});

describe("opencode provider", () => {
  test.each([
    ["anthropic/claude-sonnet-4-5", "anthropic", false],
    ["openrouter/anthropic/claude-sonnet-4.5", "openrouter", true],
    ["github-copilot/gpt-5", "github-copilot", true],
    ["opencode/big-pickle", "opencode", false],
    ["no-prefix", "unknown", false],
    [undefined, "unknown", false],
  ] as const)("%p → %p (aggregator %p)", (model, provider, aggregator) => {
    // The model-prefix rule, as config derivation applies it to every opencode agent.
    const derived = deriveProvider(opencodeAdapter.provider, model, undefined);
    expect(derived?.provider ?? "unknown").toBe(provider);
    expect(derived?.aggregator ?? false).toBe(aggregator);
  });
});

describe("opencode export", () => {
  test("argv and the model from a real export", () => {
    expect(opencodeExportArgv("ses_x")).toEqual(["export", "ses_x"]);
    expect(opencodeModelFromExport(readFileSync(join(FIX, "fake-export.stdout"), "utf8"))).toBe("fake/fake-model");
  });

  test("the last assistant message wins over the session default; garbage gives undefined", () => {
    const doc = { info: { model: { id: "a", providerID: "p" } }, messages: [{ info: { role: "assistant", providerID: "q", modelID: "b" } }] };
    expect(opencodeModelFromExport(`Exporting…\n${JSON.stringify(doc)}`)).toBe("q/b");
    expect(opencodeModelFromExport(JSON.stringify({ info: doc.info, messages: [] }))).toBe("p/a");
    expect(opencodeModelFromExport("not json")).toBeUndefined();
  });
});

describe("opencode parse (real transcripts)", () => {
  test("plain run → session, text, usage, final", () => {
    const o = outcome("fake-run-json");
    expect(kinds(o.events)).toEqual(["session", "step", "text", "usage", "final"]);
    expect(o.events).toContainEqual({ kind: "session", sessionId: "ses_dd8959011ffeq7GdCyXk638UEP" });
    expect(o.events).toContainEqual({ kind: "text", text: "PONG-FROM-FAKE" });
    expect(o.events).toContainEqual({ kind: "usage", delta: true, usage: { inputTokens: 2448, outputTokens: 4, cachedInputTokens: 0, costUsd: 0 } });
  });

  test("built-in provider reports cost", () => {
    const usage = outcome("fake-builtin-openai-run-json").events.find((e) => e.kind === "usage");
    expect(usage).toEqual({ kind: "usage", delta: true, usage: { inputTokens: 3110, outputTokens: 4, cachedInputTokens: 0, costUsd: 0.0004689 } });
  });

  test("bash tool → acting tool event with exit code", () => {
    const o = outcome("fake-toolcall-touch-run-json");
    expect(kinds(o.events)).toEqual(["session", "step", "tool", "usage", "session", "step", "text", "usage", "final"]);
    expect(o.events).toContainEqual({ kind: "tool", name: "bash", phase: "end", acts: true, detail: "touch created-by-tool.txt", exitCode: 0 });
  });

  test("--print-logs stream error lines on stderr are its only retry signal; other log lines are nothing", () => {
    const line = (text: string) =>
      `timestamp=2026-12-01T19:59:57.368Z level=ERROR run=96fff476 message="stream error" providerID=fake modelID=m session.id=ses_x small=false agent=build mode=primary error.error="${text}"`;
    expect(opencodeAdapter.parseStderr?.(line("AI_APICallError: Rate limit reached for requests. Please try again in 20s."))).toEqual([
      { kind: "retry", message: "stream error: Rate limit reached for requests. Please try again in 20s.", failure: "capacity" },
    ]);
    expect(opencodeAdapter.parseStderr?.(line("AI_APICallError: The server is overloaded. Please try again later."))?.[0]).toMatchObject({
      failure: "capacity",
    });
    expect(opencodeAdapter.parseStderr?.(line("AI_APICallError: Cannot connect to API: Unable to connect."))?.[0]).toMatchObject({ failure: "transport" });
    expect(opencodeAdapter.parseStderr?.(line("AI_APICallError: Incorrect API key provided: dummy."))).toEqual([
      { kind: "retry", message: "stream error: Incorrect API key provided: dummy." },
    ]);
    expect(opencodeAdapter.parseStderr?.('timestamp=x level=ERROR run=1 message="Failed to fetch models.dev" cause="Unable to connect"')).toEqual([]);
    expect(opencodeAdapter.parseStderr?.("level=INFO message=init")).toEqual([]);
    // The route invocation keeps the logs that carry it.
    expect(opencodeAdapter.invocation({ mode: "route", prompt: "p", cwd: "/r" }).args).toContain("--print-logs");
  });

  test("read-only and edit tools, reasoning, garbage", () => {
    const line = (tool: string, input: object) => JSON.stringify({ type: "tool_use", sessionID: "s", part: { tool, state: { status: "completed", input } } });
    expect(opencodeAdapter.parse(line("read", { filePath: "/a" }))[0]).toMatchObject({ kind: "tool", acts: false });
    expect(opencodeAdapter.parse(line("edit", { filePath: "/a" }))).toContainEqual({ kind: "file_change", path: "/a", change: "update" });
    expect(opencodeAdapter.parse(line("mymcp_deploy", {}))[0]).toMatchObject({ acts: true });
    expect(opencodeAdapter.parse('{"type":"reasoning","part":{"text":"hm"}}')).toEqual([{ kind: "thinking", text: "hm" }]);
    for (const junk of ["", "not json", "[1,2]", '{"type":"step_finish"}', '{"type":', "null"]) expect(opencodeAdapter.parse(junk)).toEqual([]);
  });
});

describe("opencode classify (real outcomes)", () => {
  test.each([
    ["fake-run-json", undefined],
    ["fake-toolcall-run-json", undefined],
    ["fake-error401-run-json", "auth"],
    ["fake-error429-run-json", "capacity"],
    ["fake-error529-run-json", "capacity"],
    ["noauth-run-json-300s", "transport"],
    // A provider signed out (or a model id misspelt): UnknownError, the cause only in the log line.
    ["noauth-run-json-unknown-model-printlogs", "auth"],
    ["fake-session-missing-json", "task_failed"],
    ["fake-run-json-nomessage", "task_failed"],
  ] as const)("%s → %p", (name, expected) => {
    expect(opencodeAdapter.classify(outcome(name))).toBe(expected);
  });

  test("an UnknownError without the log line's cause stays a task failure; with it, the explanation names the model and both causes", () => {
    const signedOut = outcome("noauth-run-json-unknown-model-printlogs");
    expect(opencodeAdapter.classify({ ...signedOut, stderrTail: "" })).toBe("task_failed");
    expect(opencodeAdapter.explain?.(signedOut)).toContain("could not load nosuch/model:");
    expect(opencodeAdapter.explain?.(signedOut)).toContain("opencode auth login");
    expect(opencodeAdapter.explain?.({ ...signedOut, stderrTail: "" })).toBeUndefined();
  });

  test("synthetic ends: not installed, killed, empty answer, nothing parseable", () => {
    const none: ExitOutcome = { exitCode: 0, signal: null, events: [], stderrTail: "", rawStdoutTail: "" };
    expect(opencodeAdapter.classify({ ...none, exitCode: 127 })).toBe("not_installed");
    expect(opencodeAdapter.classify({ ...none, exitCode: null, signal: "SIGSEGV" })).toBe("task_failed");
    expect(opencodeAdapter.classify({ ...none, events: [{ kind: "final", ok: true }] })).toBe("empty_answer");
    expect(opencodeAdapter.classify(none)).toBe("bad_output");
    expect(opencodeAdapter.classify({ ...none, events: [{ kind: "session", sessionId: "s" }], rawStdoutTail: "garbage" })).toBe("bad_output");
  });
});

test("probes name the flags invocation relies on", () => {
  const flags = opencodeAdapter.probes.requiredFlags.map((f) => f.flag);
  for (const arg of opencodeAdapter.invocation({ ...base, mode: "answer", model: "a/b", resumeSessionId: "s" }).args) {
    if (arg.startsWith("--")) expect(flags).toContain(arg);
  }
  expect(opencodeAdapter.probes.auth).toEqual(["auth", "list"]);
  expect(opencodeAdapter.supportsResume).toBe(true);
});

describe("opencode readiness (auth list)", () => {
  const read = (stdout: string) => opencodeAdapter.readiness?.({ exitCode: 0, stdout, stderr: "" }, {});
  test("no credentials and no provider key in the environment: not ready", () => {
    expect(read("┌  Credentials \x1b[90m~/.local/share/opencode/auth.json\n│\n└  0 credentials\n")).toBe("not_ready");
  });
  test("keys found in the environment count (research §A.3: an Environment block)", () => {
    expect(read("┌  Credentials\n└  0 credentials\n┌  Environment\n●  Anthropic \x1b[90mANTHROPIC_API_KEY\n└  2 environment variables\n")).toBe("ready");
  });
  test("stored credentials count", () => {
    expect(read("┌  Credentials\n●  OpenAI \x1b[90moauth\n└  1 credentials\n")).toBe("ready");
  });
  test("opencode is never pre-flighted", () => {
    expect(opencodeAdapter.preflight).toBeFalsy();
  });
});
