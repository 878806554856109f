import { deriveProvider } from "../../src/config/providers.ts";
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { geminiAdapter } from "../../src/backends/gemini/index.ts";
import { capAttempts, GEMINI_MAX_ATTEMPTS, GEMINI_NO_MCP } from "../../src/backends/gemini/invocation.ts";
import type { AgentEvent, ExitOutcome, RunRequest } from "../../src/backends/contract.ts";

const FIX = join(import.meta.dir, "..", "fixtures", "gemini");
const base: RunRequest = { mode: "route", prompt: "-- refactor the parser", cwd: "/work/proj" };

function outcome(name: string): ExitOutcome {
  const stdout = readFileSync(join(FIX, `${name}.stdout`), "utf8");
  const meta = readFileSync(join(FIX, `${name}.meta`), "utf8");
  const lines = stdout.split("\n").filter((l) => l.trim() !== "");
  return {
    exitCode: Number(/rc[:=] ?(\d+)/.exec(meta)?.[1]),
    signal: null,
    events: lines.flatMap((l) => geminiAdapter.parse(l)),
    stderrTail: readFileSync(join(FIX, `${name}.stderr`), "utf8"),
    rawStdoutTail: lines.filter((l) => !l.startsWith("{")).join("\n"),
  };
}

const kinds = (events: AgentEvent[]) => events.map((e) => e.kind);

describe("gemini invocation", () => {
  test("route: stream-json, auto_edit (edits, no shell), no MCP, prompt on stdin, the repo trusted for this run only", () => {
    const inv = geminiAdapter.invocation({ ...base, model: "gemini-2.5-pro" });
    expect(inv.args).toEqual(["-o", "stream-json", "--approval-mode", "auto_edit", "--allowed-mcp-server-names", GEMINI_NO_MCP, "-m", "gemini-2.5-pro"]);
    expect(inv.stdin).toBe(base.prompt);
    // gemini exits 55 in any folder it was never told to trust; the variable trusts it and writes nothing.
    expect(inv.env).toEqual({ GEMINI_CLI_TRUST_WORKSPACE: "true" });
    expect(inv.args).not.toContain("--yolo");
    expect(inv.args).not.toContain("--skip-trust");
  });

  test("each run's private home: the person's .gemini linked, settings.json theirs with gemini's retries capped", () => {
    const overlay = geminiAdapter.homeOverlay?.({ env: {}, home: "/home/p", request: base });
    expect(overlay).toMatchObject({ envVar: "GEMINI_CLI_HOME", root: "/home/p", entries: [".gemini", ".agents"], keep: [".gemini/tmp", ".gemini/history"] });
    expect(geminiAdapter.homeOverlay?.({ env: { GEMINI_CLI_HOME: "/elsewhere" }, home: "/home/p", request: base })?.root).toBe("/elsewhere");
    const adjust = overlay?.settings[".gemini/settings.json"];
    expect(adjust?.({ security: { auth: { selectedType: "oauth-personal" } }, general: { vimMode: true } })).toEqual({
      security: { auth: { selectedType: "oauth-personal" } },
      general: { vimMode: true, maxAttempts: GEMINI_MAX_ATTEMPTS },
    });
    // A stricter cap of the person's own stands; a looser one does not.
    expect(GEMINI_MAX_ATTEMPTS).toBe(1);
    expect(capAttempts({ general: { maxAttempts: 1 } })).toEqual({ general: { maxAttempts: 1 } });
    expect(capAttempts({ general: { maxAttempts: 10 } })).toEqual({ general: { maxAttempts: 1 } });
  });

  test("one attempt, then the runner re-runs it: the trait, and a provider's asked-for wait read from the result", () => {
    expect(geminiAdapter.traits.capacityRerun?.delayMs).toBeLessThan(1000);
    const line = JSON.stringify({
      type: "result",
      status: "error",
      error: { type: "unknown", message: "[API Error: Resource has been exhausted (e.g. check quota).\nSuggested retry after 20s.]" },
      stats: {},
    });
    expect(geminiAdapter.parse(line).filter((e) => e.kind === "retry")).toEqual([expect.objectContaining({ failure: "capacity", retryAfterSec: 20 })]);
    const plain = JSON.stringify({
      type: "result",
      status: "error",
      error: { type: "unknown", message: "[API Error: Resource has been exhausted (e.g. check quota).]" },
      stats: {},
    });
    expect(geminiAdapter.parse(plain).filter((e) => e.kind === "retry")).toEqual([]);
  });

  test("answer: explicit default approval, no extensions, trusted throw-away cwd, --resume", () => {
    const inv = geminiAdapter.invocation({ ...base, mode: "answer", resumeSessionId: "e272c53c-d117-43a2-8055-23ba9c182650", isolatedHome: "/tmp/iso" });
    expect(inv.args).toEqual([
      "-o",
      "stream-json",
      "--approval-mode",
      "default",
      "--allowed-mcp-server-names",
      GEMINI_NO_MCP,
      "-e",
      "none",
      "--resume",
      "e272c53c-d117-43a2-8055-23ba9c182650",
    ]);
    expect(inv.env).toEqual({ GEMINI_CLI_TRUST_WORKSPACE: "true" });
    expect(inv.args.join(" ")).not.toContain(base.prompt);
  });

  test("provider, probes, resume support", () => {
    expect(deriveProvider(geminiAdapter.provider, "gemini-2.5-flash", undefined)?.provider ?? "unknown").toBe("google");
    expect(deriveProvider(geminiAdapter.provider, undefined, undefined)?.provider ?? "unknown").toBe("google");
    const flags = geminiAdapter.probes.requiredFlags.map((f) => f.flag);
    for (const arg of geminiAdapter.invocation({ ...base, mode: "answer", model: "m", resumeSessionId: "s" }).args) {
      if (arg.startsWith("--")) expect(flags).toContain(arg);
    }
    expect(geminiAdapter.probes.auth).toBeUndefined();
    expect(geminiAdapter.supportsResume).toBe(true);
  });
});

describe("gemini stderr: its only retry signal (retries-and-trust §1.4, verbatim lines)", () => {
  const parse = (line: string) => geminiAdapter.parseStderr?.(line) ?? [];
  test("429 and 503 retries are capacity; fetch failures transport; RetryInfo's wait is the retry-after", () => {
    expect(
      parse(
        'Attempt 1 failed with status 429. Retrying with backoff... _ApiError: {"error":{"code":429,"message":"Resource has been exhausted (e.g. check quota).","status":"RESOURCE_EXHAUSTED"}}',
      ),
    ).toEqual([{ kind: "retry", message: expect.stringContaining("Attempt 1 failed with status 429"), failure: "capacity" }]);
    expect(parse("Attempt 2 failed with status 503. Retrying with backoff... _ApiError: {}")[0]).toMatchObject({ kind: "retry", failure: "capacity" });
    expect(parse("Attempt 1 failed. Retrying with backoff... Error: exception TypeError: fetch failed sending request")[0]).toMatchObject({
      kind: "retry",
      failure: "transport",
    });
    expect(parse("Suggested retry after 20s.. Retrying after 21409ms...")[0]).toMatchObject({ kind: "retry", failure: "capacity", retryAfterSec: 20 });
    expect(parse("Suggested retry after 400s.")[0]).toMatchObject({ failure: "capacity", retryAfterSec: 400 });
  });

  test("the final attempt, the stack, and gemini's start-up noise are no retry", () => {
    for (const line of [
      "Attempt 10 failed: Resource has been exhausted (e.g. check quota).. Max attempts reached",
      "    at throwErrorIfNotOK (file:///x/chunk.js:267833:24)",
      "  status: 429",
      "Warning: 256-color support not detected. Using a terminal with at least 256-color support is recommended for a better visual experience.",
      "Ripgrep is not available. Falling back to GrepTool.",
      "[STARTUP] Phase 'cleanup_ops' was started but never ended. Skipping metrics.",
      "Attempt 1 failed with status 400. Retrying with backoff...",
    ])
      expect(parse(line).filter((e) => e.kind === "retry" && e.failure === "capacity")).toEqual([]);
  });
});

describe("gemini parse (real transcripts)", () => {
  test("-m run: session, text, model from stats, usage, final (user echo and init model ignored)", () => {
    const o = outcome("fake-p-streamjson-model");
    expect(kinds(o.events)).toEqual(["session", "text", "model", "usage", "final"]);
    expect(o.events).toContainEqual({ kind: "session", sessionId: "e272c53c-d117-43a2-8055-23ba9c182650" });
    expect(o.events).toContainEqual({ kind: "text", text: "PONG-FROM-FAKE", delta: true });
    expect(o.events).toContainEqual({ kind: "usage", usage: { inputTokens: 187, outputTokens: 4, cachedInputTokens: 0 } });
  });

  test("auto: every model called is reported (router + main), never the literal 'auto'", () => {
    const models = outcome("fake-p-streamjson-auto").events.filter((e) => e.kind === "model");
    expect(models).toEqual([
      { kind: "model", model: "gemini-3.5-flash-lite" },
      { kind: "model", model: "gemini-3.8-flash" },
    ]);
  });

  test("yolo shell tool acts; default-mode update_topic does not", () => {
    const yolo = outcome("fake-toolcall-yolo-streamjson").events.filter((e) => e.kind === "tool");
    expect(yolo).toEqual([
      { kind: "tool", name: "run_shell_command", phase: "start", acts: true, detail: "echo FAKE-TOOL-OK" },
      { kind: "tool", name: "run_shell_command", phase: "end", acts: true },
    ]);
    const plain = outcome("fake-toolcall-default-streamjson").events.filter((e) => e.kind === "tool");
    expect(plain.every((e) => e.kind === "tool" && !e.acts)).toBe(true);
  });

  test("edit tools report file changes; warnings are non-final; garbage is dropped", () => {
    const edit = JSON.stringify({ type: "tool_use", tool_name: "replace", tool_id: "replace__replace_1_0", parameters: { file_path: "/p/a.ts" } });
    expect(geminiAdapter.parse(edit)).toContainEqual({ kind: "file_change", path: "/p/a.ts", change: "update" });
    expect(geminiAdapter.parse('{"type":"error","severity":"warning","message":"Loop detected"}')).toEqual([{ kind: "retry", message: "Loop detected" }]);
    for (const junk of ["", "Warning: 256-color", "{", "[]", '{"type":"message","role":"user","content":"hi"}']) expect(geminiAdapter.parse(junk)).toEqual([]);
  });

  test("error result → error with class + failed final", () => {
    const o = outcome("fake-error429-streamjson");
    expect(kinds(o.events)).toEqual(["session", "model", "usage", "error", "final"]);
    expect(o.events.find((e) => e.kind === "error")).toMatchObject({ failure: "capacity" });
  });
});

describe("gemini classify (real outcomes)", () => {
  test.each([
    ["fake-p-streamjson-model", undefined],
    ["fake-toolcall-yolo-streamjson", undefined],
    ["fake-error401-streamjson", "auth"],
    ["fake-error429-streamjson", "capacity"],
    ["fake-error529-streamjson", "capacity"],
    ["noauth-p-streamjson", "auth"],
    ["dummykey-nonet-streamjson", "task_failed"],
    ["fake-resume-missing-streamjson", "task_failed"],
    ["fake-session-id-existing-streamjson", "task_failed"],
    ["fake-sandbox-streamjson", "task_failed"],
  ] as const)("%s → %p", (name, expected) => {
    expect(geminiAdapter.classify(outcome(name))).toBe(expected);
  });

  test("exit codes and synthetic ends", () => {
    const none: ExitOutcome = { exitCode: 0, signal: null, events: [], stderrTail: "", rawStdoutTail: "" };
    expect(geminiAdapter.classify({ ...none, exitCode: 127 })).toBe("not_installed");
    expect(geminiAdapter.classify({ ...none, exitCode: 130 })).toBe("cancelled");
    expect(geminiAdapter.classify({ ...none, exitCode: 41 })).toBe("auth");
    expect(geminiAdapter.classify({ ...none, exitCode: 173 })).toBe("capacity");
    expect(geminiAdapter.classify({ ...none, exitCode: 247 })).toBe("capacity");
    expect(geminiAdapter.classify({ ...none, exitCode: 1, stderrTail: "Error: exception TypeError: fetch failed sending request" })).toBe("transport");
    expect(geminiAdapter.classify({ ...none, exitCode: null, signal: "SIGSEGV" })).toBe("task_failed");
    expect(
      geminiAdapter.classify({
        ...none,
        events: [
          { kind: "session", sessionId: "s" },
          { kind: "text", text: "hi" },
        ],
      }),
    ).toBe("bad_output");
    expect(geminiAdapter.classify({ ...none, events: [{ kind: "final", ok: true }] })).toBe("empty_answer");
    expect(geminiAdapter.classify({ ...none, events: [{ kind: "final", ok: false }] })).toBe("task_failed");
  });
});

describe("gemini on an individual Google account after 2026-06-18 (cli-agy.md §7)", () => {
  const none: ExitOutcome = { exitCode: 1, signal: null, events: [], stderrTail: "", rawStdoutTail: "" };
  const RETIRED =
    "Error authenticating: IneligibleTierError: This client is no longer supported for Gemini Code Assist\nfor individuals. To continue using Gemini, please migrate to the Antigravity suite of products:\nhttps://antigravity.google\n";
  const TRACE =
    "Loaded cached credentials.\nIneligibleTierError: This client is no longer supported for Gemini Code Assist for individuals. To continue using Gemini, please migrate to the Antigravity suite of products: https://antigravity.google\n    at throwIneligibleOrProjectIdError (file:///gemini/bundle.js:1:1)\n    at _doSetupUser (file:///gemini/bundle.js:1:1)\n  ineligibleTiers: [ { reasonCode: 'UNSUPPORTED_CLIENT', tierId: 'free-tier', tierName: 'Gemini Code Assist for individuals' } ]\n";

  test.each([
    ["gemini 0.60.0 -p: exit 1, that line on stderr", { ...none, stderrTail: RETIRED }],
    ["gemini 0.58.0: the stack trace with ineligibleTiers", { ...none, stderrTail: TRACE }],
    ["ACP session/new: exit 55", { ...none, exitCode: 55, stderrTail: RETIRED }],
    [
      "interactive sign-in wording",
      {
        ...none,
        stderrTail:
          "Failed to sign in. Message: This client is no longer supported for Gemini Code Assist for individuals. To continue using Gemini, please migrate to the Antigravity suite of products: https://antigravity.google",
      },
    ],
  ] as const)("%s → auth, and the explanation names agy", (_name, outcome) => {
    expect(geminiAdapter.classify(outcome)).toBe("auth");
    const why = geminiAdapter.explain?.(outcome) ?? "";
    expect(why).toContain("agy");
    expect(why).toContain("signing in again will not help");
  });

  test("a Workspace account's DASHER_USER refusal is auth too, without sending the person to agy", () => {
    const outcome = { ...none, stderrTail: "Error authenticating: IneligibleTierError: DASHER_USER\n" };
    expect(geminiAdapter.classify(outcome)).toBe("auth");
    expect(geminiAdapter.explain?.(outcome)).toContain("Workspace");
    expect(geminiAdapter.explain?.(outcome)).not.toContain("agy");
  });

  test("other failures keep their class and get no explanation", () => {
    const signedOut = { ...none, exitCode: 41, stderrTail: "Please set an Auth method in your /h/.gemini/settings.json" };
    expect(geminiAdapter.classify(signedOut)).toBe("auth");
    expect(geminiAdapter.explain?.(signedOut)).toBeUndefined();
    expect(geminiAdapter.classify({ ...none, stderrTail: "[API Error: exception TypeError: fetch failed sending request]" })).toBe("transport");
    expect(geminiAdapter.explain?.({ ...none, exitCode: 0, events: [{ kind: "final", ok: true }] })).toBeUndefined();
  });
});
