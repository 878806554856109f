import { deriveProvider } from "../../src/config/providers.ts";
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { grokAdapter } from "../../src/backends/grok/index.ts";
import { grokBuildSummaryPath, grokModelFromSummary } from "../../src/backends/grok/machine.ts";
import { grokProbesFor } from "../../src/backends/grok/probes.ts";
import { detectGrokVariant, grokSupportsResume } from "../../src/backends/grok/variant.ts";
import type { AgentEvent, ExitOutcome, RunRequest } from "../../src/backends/contract.ts";
import { foldEvents } from "../../src/backends/fold.ts";

const FIX = join(import.meta.dir, "..", "fixtures", "grok");
const base: RunRequest = { mode: "route", prompt: "fix the bug", cwd: "/work/p" };

function fixture(name: string): { stdout: string; stderr: string; rc: number } {
  const meta = readFileSync(join(FIX, `${name}.meta`), "utf8");
  return {
    stdout: readFileSync(join(FIX, `${name}.stdout`), "utf8"),
    stderr: readFileSync(join(FIX, `${name}.stderr`), "utf8"),
    rc: Number(/^rc[:=] ?(\d+)/m.exec(meta)?.[1]),
  };
}

function parseAll(stdout: string): AgentEvent[] {
  return stdout.split("\n").flatMap((line) => grokAdapter.parse(line));
}

function outcomeOf(name: string): ExitOutcome {
  const f = fixture(name);
  return { exitCode: f.rc, signal: null, events: parseAll(f.stdout), stderrTail: f.stderr, rawStdoutTail: "" };
}

describe("grok invocation", () => {
  test("community (default): -p, -d cwd, -m; never -k/-u; no stdin; no resume", () => {
    const inv = grokAdapter.invocation({ ...base, model: "grok-4-latest", resumeSessionId: "x" });
    expect(inv.args).toEqual(["-p", "fix the bug", "-d", "/work/p", "-m", "grok-4-latest"]);
    expect(inv.stdin).toBeUndefined();
    expect(inv.env).toBeUndefined();
  });

  test("community answer mode has no tool flags to pass: only the answer cwd confines it", () => {
    const inv = grokAdapter.invocation({ ...base, mode: "answer", cwd: "/tmp/answer" });
    expect(inv.args).toEqual(["-p", "fix the bug", "-d", "/tmp/answer"]);
  });

  test("official route mode: streaming-json, --cwd, --always-approve, --no-auto-update", () => {
    const inv = grokAdapter.invocation({ ...base, variant: "official", model: "grok-code-fast-1" });
    expect(inv.args).toEqual([
      "-p",
      "fix the bug",
      "--output-format",
      "streaming-json",
      "--cwd",
      "/work/p",
      "--no-auto-update",
      "-m",
      "grok-code-fast-1",
      "--always-approve",
    ]);
  });

  test("official answer mode resumes and never auto-approves", () => {
    const inv = grokAdapter.invocation({ ...base, mode: "answer", variant: "official", resumeSessionId: "019e89ac-1" });
    expect(inv.args).toContain("--resume");
    expect(inv.args[inv.args.indexOf("--resume") + 1]).toBe("019e89ac-1");
    expect(inv.args).not.toContain("--always-approve");
  });

  test("no secret-bearing flags in any mode or variant", () => {
    for (const variant of ["community", "official"] as const) {
      for (const mode of ["route", "answer"] as const) {
        const args = grokAdapter.invocation({ ...base, mode, variant }).args;
        for (const bad of ["-k", "--api-key", "-u", "--base-url"]) expect(args).not.toContain(bad);
      }
    }
  });

  test("the prompt can only travel as an argument: the transport's size check applies", () => {
    // community 0.0.34 never reads stdin and has no prompt file (research §D.1).
    expect(grokAdapter.promptOnArgv).toBe(true);
    expect(grokAdapter.invocation({ ...base, prompt: "hello" }).stdin).toBeUndefined();
  });

  test("dash-leading prompt uses the = form", () => {
    expect(grokAdapter.invocation({ ...base, prompt: "-x" }).args[0]).toBe("--prompt=-x");
    expect(grokAdapter.invocation({ ...base, prompt: "-x", variant: "official" }).args[0]).toBe("--single=-x");
  });
});

describe("variant detection and per-variant facts", () => {
  test("community help and its hard-coded 1.0.1 version", () => {
    expect(detectGrokVariant(readFileSync(join(import.meta.dir, "..", "..", "fakes", "scenarios", "grok", "help", "community.txt"), "utf8"))).toBe("community");
    expect(detectGrokVariant("1.0.1\n")).toBe("community");
  });

  test("official help and version", () => {
    expect(detectGrokVariant(readFileSync(join(import.meta.dir, "..", "..", "fakes", "scenarios", "grok", "help", "official.txt"), "utf8"))).toBe("official");
    expect(detectGrokVariant("grok 0.1.0 (Grok Build)")).toBe("official");
    expect(detectGrokVariant("0.4.2")).toBe("official");
  });

  test("resume, probes, provider", () => {
    expect(grokSupportsResume("community")).toBe(false);
    expect(grokSupportsResume("official")).toBe(true);
    expect(grokAdapter.supportsResume).toBe(false);
    expect(grokProbesFor("official").requiredFlags.map((f) => f.flag)).toContain("--always-approve");
    expect(grokProbesFor("community").requiredFlags.map((f) => f.flag)).toContain("--directory");
    expect(deriveProvider(grokAdapter.provider, undefined, undefined)?.provider ?? "unknown").toBe("xai");
  });

  test("Grok Build session summary gives the model", () => {
    expect(grokBuildSummaryPath("/h", "/w/p", "id1")).toBe("/h/.grok/sessions/%2Fw%2Fp/id1/summary.json");
    expect(grokModelFromSummary('{"id":"id1","model":"grok-code-fast-1"}')).toBe("grok-code-fast-1");
    expect(grokModelFromSummary("nope")).toBeUndefined();
  });
});

describe("grok parse over real community transcripts", () => {
  test("plain answer is a single text event", () => {
    expect(parseAll(fixture("grok-fake-p").stdout)).toEqual([{ kind: "text", text: "PONG-FROM-FAKE" }]);
  });

  test("tool round: bash acts, answer is the last assistant message", () => {
    const events = parseAll(fixture("grok-fake-toolcall").stdout);
    expect(events[0]).toEqual({ kind: "tool", name: "bash", phase: "start", acts: true, detail: "echo FAKE-TOOL-OK" });
    const run = foldEvents(events);
    expect(run.text).toBe("PONG-FROM-FAKE");
    expect(run.acted).toBe(true);
  });

  test("the exit-0 apology becomes a classified error", () => {
    expect(parseAll(fixture("grok-fake-error429").stdout)).toEqual([
      { kind: "error", message: "Grok API error: 429 Rate limit reached for requests. Please try again in 20s.", failure: "capacity" },
    ]);
  });

  test("official streaming-json: thought, text chunks, end with session and usage", () => {
    const lines = [
      '{"type":"thought","data":"hmm"}',
      '{"type":"text","data":"PONG-"}',
      '{"type":"text","data":"FROM-FAKE"}',
      '{"type":"end","stopReason":"EndTurn","sessionId":"019e89ac-aa","requestId":"r","usage":{"input_tokens":10,"output_tokens":2},"num_turns":1,"total_cost_usd":0.5}',
    ];
    expect(lines.flatMap((l) => grokAdapter.parse(l))).toEqual([
      { kind: "thinking", text: "hmm" },
      { kind: "text", text: "PONG-", delta: true },
      { kind: "text", text: "FROM-FAKE", delta: true },
      { kind: "session", sessionId: "019e89ac-aa" },
      { kind: "usage", usage: { inputTokens: 10, outputTokens: 2, costUsd: 0.5, turns: 1 } },
      { kind: "final", ok: true },
    ]);
  });

  test("garbage never throws", () => {
    for (const line of ["", "{", "null", "[1]", '{"role":5}', "✅ API key saved to ~/.grok/user-settings.json"]) expect(grokAdapter.parse(line)).toEqual([]);
  });
});

describe("grok classify over real outcomes", () => {
  const table: [string, string | undefined][] = [
    ["grok-fake-p", undefined],
    ["grok-fake-p-model-dir", undefined],
    ["grok-fake-toolcall", undefined],
    ["grok-fake-stdin-open", undefined],
    ["grok-fake-error401", "auth"],
    ["grok-fake-error429", "capacity"],
    ["grok-fake-error529", "capacity"],
    ["grok-dummykey-nonet-p", "transport"],
    ["grok-noauth-p", "auth"],
  ];
  for (const [name, expected] of table) test(`${name} → ${expected ?? "success"}`, () => expect(grokAdapter.classify(outcomeOf(name))).toBe(expected as never));

  test("exit 0 is not success by itself; missing binary; garbage; official failed end", () => {
    const none: ExitOutcome = { exitCode: 0, signal: null, events: [], stderrTail: "", rawStdoutTail: "" };
    expect(grokAdapter.classify(none)).toBe("empty_answer");
    expect(grokAdapter.classify({ ...none, rawStdoutTail: '{"role":"assistant","content":"PO' })).toBe("bad_output");
    expect(grokAdapter.classify({ ...none, exitCode: 127 })).toBe("not_installed");
    expect(grokAdapter.classify({ ...none, stderrTail: "error: unknown option '--foo'", exitCode: 1 })).toBe("task_failed");
    expect(grokAdapter.classify({ ...none, events: grokAdapter.parse('{"type":"end","stopReason":"MaxTurns","sessionId":"s"}') })).toBe("task_failed");
    expect(
      grokAdapter.classify({ ...none, exitCode: 1, stderrTail: "Not signed in. To authenticate without a browser, run:\n  grok login --device-code" }),
    ).toBe("auth");
  });
});
