import { deriveProvider } from "../../src/config/providers.ts";
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { copilotAdapter } from "../../src/backends/copilot/index.ts";
import { copilotUsageFilePath } from "../../src/backends/copilot/invocation.ts";
import { copilotSessionDir, copilotUsageFromUsageFile } from "../../src/backends/copilot/machine.ts";
import { copilotVersionFrom } from "../../src/backends/copilot/probes.ts";
import type { AgentEvent, ExitOutcome, RunRequest } from "../../src/backends/contract.ts";
import { foldEvents } from "../../src/backends/fold.ts";

const FIX = join(import.meta.dir, "..", "fixtures", "copilot");
const base: RunRequest = { mode: "route", prompt: "fix the bug", cwd: "/work/p" };

function fixture(name: string): { stdout: string; stderr: string; rc: number } {
  const meta = readFileSync(join(FIX, `${name}.meta`), "utf8");
  return {
    stdout: readFileSync(join(FIX, `${name}.stdout`), "utf8"),
    stderr: readFileSync(join(FIX, `${name}.stderr`), "utf8"),
    rc: Number(/^rc: (\d+)/m.exec(meta)?.[1]),
  };
}

function parseAll(stdout: string): AgentEvent[] {
  return stdout.split("\n").flatMap((line) => copilotAdapter.parse(line));
}

function outcomeOf(name: string): ExitOutcome {
  const f = fixture(name);
  return { exitCode: f.rc, signal: null, events: parseAll(f.stdout), stderrTail: f.stderr, rawStdoutTail: "" };
}

describe("copilot invocation", () => {
  test("route mode auto-approves tools, keeps path checks, isolates built-in MCPs; the prompt on stdin", () => {
    const inv = copilotAdapter.invocation({ ...base, model: "gpt-5.4" });
    expect(inv.args).toEqual([
      "--output-format",
      "json",
      "--no-auto-update",
      "--no-ask-user",
      "--disable-builtin-mcps",
      "--model",
      "gpt-5.4",
      "--allow-all-tools",
    ]);
    expect(inv.args).not.toContain("--allow-all");
    expect(inv.args).not.toContain("--allow-all-paths");
    // Piped without -p, copilot reads its prompt to EOF: no 128 KiB argv limit, nothing in `ps`.
    expect(inv.stdin).toBe("fix the bug");
    expect(copilotAdapter.promptOnArgv).toBeUndefined();
  });

  test("answer mode denies shell and write, never allows all, drops COPILOT_ALLOW_ALL, keeps COPILOT_HOME", () => {
    const inv = copilotAdapter.invocation({ ...base, mode: "answer", isolatedHome: "/tmp/iso/", resumeSessionId: "d288920d-acd0-449c-b8ce-c72c1fc8561c" });
    expect(inv.args).toContain("--deny-tool=shell");
    expect(inv.args).toContain("--deny-tool=write");
    expect(inv.args).not.toContain("--allow-all-tools");
    expect(inv.args).toContain("--resume=d288920d-acd0-449c-b8ce-c72c1fc8561c");
    expect(inv.args).toContain("--disable-builtin-mcps");
    expect(inv.args.slice(-2)).toEqual(["--usage-output-file", "/tmp/iso/copilot-usage.json"]);
    expect(inv.env && "COPILOT_ALLOW_ALL" in inv.env).toBe(true);
    expect(inv.env?.COPILOT_ALLOW_ALL).toBeUndefined();
    // Login and session-state live under COPILOT_HOME: isolating it would break auth and --resume.
    expect(inv.env && "COPILOT_HOME" in inv.env).toBe(false);
    expect(inv.stdin).toBe("fix the bug");
  });

  test("a dash-leading prompt never reaches argv, where it could parse as a flag", () => {
    const inv = copilotAdapter.invocation({ ...base, prompt: "-rf everything" });
    expect(inv.stdin).toBe("-rf everything");
    expect(inv.args.join(" ")).not.toContain("-rf");
  });

  test("no model flag when the model is the CLI's own default", () => {
    expect(copilotAdapter.invocation(base).args).not.toContain("--model");
  });

  test("usage file only in answer mode with an isolated dir; session dir follows COPILOT_HOME", () => {
    expect(copilotUsageFilePath({ mode: "route", isolatedHome: "/x" })).toBeUndefined();
    expect(copilotSessionDir({ HOME: "/h" }, "abc")).toBe("/h/.copilot/session-state/abc");
    expect(copilotSessionDir({ HOME: "/h", COPILOT_HOME: "/c" }, "abc")).toBe("/c/session-state/abc");
  });

  test("probes and provider", () => {
    expect(deriveProvider(copilotAdapter.provider, "claude-sonnet-4.6", undefined)?.provider ?? "unknown").toBe("github");
    expect(copilotAdapter.probes.requiredFlags.map((f) => f.flag)).toContain("--deny-tool");
    expect(copilotAdapter.probes.auth).toBeUndefined();
    expect(copilotAdapter.supportsResume).toBe(true);
    expect(copilotVersionFrom("GitHub Copilot CLI 1.0.102.\nRun 'copilot update' to check for updates.")).toBe("1.0.102");
  });
});

describe("copilot parse over real transcripts", () => {
  test("plain answer: model, text, session, final", () => {
    const events = parseAll(fixture("copilot-fake-p-json").stdout);
    expect(events).toEqual([
      { kind: "model", model: "gpt-4o" },
      { kind: "text", text: "PONG-FROM-FAKE" },
      { kind: "session", sessionId: "d288920d-acd0-449c-b8ce-c72c1fc8561c" },
      { kind: "final", ok: true },
    ]);
  });

  test("--model reaches assistant.message.data.model", () => {
    expect(foldEvents(parseAll(fixture("copilot-fake-model-flag-json").stdout)).models).toEqual(["gpt-4.1"]);
  });

  test("tool round: bash acts, completion carries the shell exit code, answer is the last message", () => {
    const events = parseAll(fixture("copilot-fake-toolcall-json").stdout);
    expect(events.filter((e) => e.kind === "tool")).toEqual([
      { kind: "tool", name: "bash", phase: "start", acts: true, detail: "echo FAKE-TOOL-OK" },
      { kind: "tool", name: "tool", phase: "end", acts: false, exitCode: 0 },
    ]);
    const run = foldEvents(events);
    expect(run.text).toBe("PONG-FROM-FAKE");
    expect(run.acted).toBe(true);
  });

  test("a denied tool reports the denial text on its end event", () => {
    const end = parseAll(fixture("copilot-fake-toolcall-touch-denytool-json").stdout).find((e) => e.kind === "tool" && e.phase === "end");
    expect(end).toMatchObject({ detail: "Permission to run this tool was denied due to the following rules: `shell(touch)`" });
  });

  test("a denied tool is a refusal the route can surface (retries-and-trust §3)", () => {
    const events = parseAll(fixture("copilot-fake-toolcall-touch-denytool-json").stdout);
    expect(foldEvents(events).refusals).toEqual([
      { tool: "bash", id: expect.stringMatching(/^call_fake_/), message: "Permission to run this tool was denied due to the following rules: `shell(touch)`" },
    ]);
    expect(parseAll(fixture("copilot-fake-toolcall-json").stdout).filter((e) => e.kind === "refusal")).toEqual([]);
  });

  test("429: each failed request is one capacity signal (model.call_failure), the retries unmarked, a capacity error, a failed final", () => {
    const events = parseAll(fixture("copilot-fake-error429-json").stdout);
    const capacity = events.filter((e) => e.kind === "retry" && e.failure === "capacity");
    // 1 + 5 requests, each followed by one model.call_failure; turn_retry must not count it twice.
    expect(capacity).toHaveLength(6);
    expect(events.filter((e) => e.kind === "retry" && e.failure === undefined)).toHaveLength(5);
    expect(events.find((e) => e.kind === "error")).toMatchObject({ failure: "capacity" });
    expect(events.at(-1)).toEqual({ kind: "final", ok: false, message: "copilot exitCode 1" });
  });

  test("garbage never throws", () => {
    for (const line of ["", "{", "null", "[]", '{"type":5}', '{"type":"result"', "PONG"]) expect(copilotAdapter.parse(line)).toEqual([]);
  });
});

describe("copilot classify over real outcomes", () => {
  const table: [string, string | undefined][] = [
    ["copilot-fake-p-json", undefined],
    ["copilot-fake-toolcall-json", undefined],
    ["copilot-fake-error401-json", "auth"],
    ["copilot-fake-error429-json", "capacity"],
    ["copilot-fake-error529-json", "capacity"],
    ["copilot-noauth-p-json", "auth"],
    ["copilot-dummytoken-nonet-json", "transport"],
    ["copilot-fake-resume-missing-json", "task_failed"],
  ];
  for (const [name, expected] of table)
    test(`${name} → ${expected ?? "success"}`, () => expect(copilotAdapter.classify(outcomeOf(name))).toBe(expected as never));

  test("missing binary, empty answer, truncated stream, killed run", () => {
    const none: ExitOutcome = { exitCode: 127, signal: null, events: [], stderrTail: "", rawStdoutTail: "" };
    expect(copilotAdapter.classify(none)).toBe("not_installed");
    const empty = copilotAdapter.parse('{"type":"result","sessionId":"s","exitCode":0}');
    expect(copilotAdapter.classify({ ...none, exitCode: 0, events: empty })).toBe("empty_answer");
    expect(copilotAdapter.classify({ ...none, exitCode: 0, rawStdoutTail: '{"type":"res' })).toBe("bad_output");
    expect(copilotAdapter.classify({ ...none, exitCode: null, signal: "SIGKILL" })).toBe("task_failed");
  });
});

test("usage file: tokens and model from the real --usage-output-file JSON", () => {
  const got = copilotUsageFromUsageFile(readFileSync(join(FIX, "copilot-fake-usage-output-file.json"), "utf8"));
  expect(got).toEqual({ usage: { inputTokens: 6897, outputTokens: 4, cachedInputTokens: 0 }, models: ["gpt-4o"] });
  expect(copilotUsageFromUsageFile("not json")).toBeUndefined();
});
