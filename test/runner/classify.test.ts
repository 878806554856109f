import { describe, expect, test } from "bun:test";
import type { ExitOutcome, FailureClass } from "../../src/backends/contract.ts";
import { foldEvents, type FoldedRun } from "../../src/backends/fold.ts";
import { classifyAttempt, type Classified, type ClassifyInput } from "../../src/runner/classify.ts";
import type { GuardTrip } from "../../src/runner/guards.ts";
import type { EndReason, TransportEnd } from "../../src/runner/transports/types.ts";

const BUDGET: GuardTrip = { guard: "budget", stop: "budget_exceeded", failure: "budget", beatsCancel: true };
const HOPELESS: GuardTrip = { guard: "hopeless_retry", stop: "cancelled", failure: "transport", beatsCancel: false };

function end(endReason: EndReason, more: Partial<TransportEnd> = {}): TransportEnd {
  return { endReason, exitCode: endReason === "exit" ? 0 : null, signal: endReason === "exit" ? null : "SIGTERM", stderrTail: "", rawStdoutTail: "", ...more };
}

/** The backend's reading, fixed per row; it must never be asked when the end already decides. */
const reads = (failure: FailureClass | undefined) => (_: ExitOutcome) => failure;
const never = (_: ExitOutcome): FailureClass | undefined => {
  throw new Error("the backend was asked about an end that decides by itself");
};

function input(more: Partial<ClassifyInput>): ClassifyInput {
  return { end: end("exit"), events: [], run: foldEvents([]), trip: undefined, callerAborted: false, limits: {}, classify: reads(undefined), ...more };
}

const usedRun: FoldedRun = { ...foldEvents([]), usage: { inputTokens: 150, outputTokens: 50, costUsd: 0.5, turns: 3 } };
const failedRun = foldEvents([{ kind: "error", message: "the tests failed" }]);

describe("classifyAttempt: end reason + guard verdict + backend reading → { failure, reason }", () => {
  const rows: [string, Partial<ClassifyInput>, Classified][] = [
    ["a normal exit the backend reads as success", {}, { reason: "answered" }],
    [
      "a normal exit the backend reads as a task failure: its last error, with the exit",
      { end: end("exit", { exitCode: 1 }), run: failedRun, classify: reads("task_failed") },
      { failure: "task_failed", reason: "task_failed (exit 1): the tests failed" },
    ],
    [
      "a failure with no detail says only the exit",
      { end: end("exit", { exitCode: 2 }), classify: reads("empty_answer") },
      { failure: "empty_answer", reason: "empty_answer (exit 2)" },
    ],
    [
      "a failure after a signal names the signal",
      { end: end("exit", { exitCode: null, signal: "SIGSEGV" }), classify: reads("task_failed") },
      { failure: "task_failed", reason: "task_failed (signal SIGSEGV)" },
    ],
    [
      "the last stderr line is the detail when nothing else is",
      { end: end("exit", { exitCode: 1, stderrTail: "warming up\nboom: disk full\n" }), classify: reads("task_failed") },
      { failure: "task_failed", reason: "task_failed (exit 1): boom: disk full" },
    ],
    [
      "auth says only unavailable",
      { end: end("exit", { exitCode: 1, stderrTail: "not logged in" }), classify: reads("auth") },
      { failure: "auth", reason: "unavailable", evidence: "not logged in" },
    ],
    ["capacity says only unavailable", { classify: reads("capacity") }, { failure: "capacity", reason: "unavailable" }],
    ["transport says only unavailable", { classify: reads("transport") }, { failure: "transport", reason: "unavailable" }],
    ["timeout", { end: end("timeout"), classify: never }, { failure: "timeout", reason: "timed out; the process group was ended" }],
    ["stalled", { end: end("stalled"), classify: never }, { failure: "stalled", reason: "no output for the stall limit; the process group was ended" }],
    ["cancelled by the caller", { end: end("cancelled"), callerAborted: true, classify: never }, { failure: "cancelled", reason: "cancelled by the client" }],
    ["shutdown", { end: end("shutdown"), classify: never }, { failure: "cancelled", reason: "the server shut down" }],
    [
      "a budget end without a trip (the caller's abort reason)",
      { end: end("budget_exceeded"), classify: never },
      { failure: "budget", reason: "token/cost/turn budget exceeded; the process group was ended" },
    ],
    [
      "could not start",
      { end: end("spawn_failed", { startError: "EACCES" }), classify: never },
      { failure: "not_installed", reason: "could not start the CLI (EACCES)" },
    ],
    ["could not start, no code", { end: end("spawn_failed"), classify: never }, { failure: "not_installed", reason: "could not start the CLI (spawn failed)" }],
    [
      "budget trip: the used figures and the limits",
      { end: end("budget_exceeded"), trip: BUDGET, run: usedRun, limits: { maxTokens: 100, maxCostUsd: 0.25, maxTurns: 2 }, classify: never },
      { failure: "budget", reason: "budget exceeded (used 200 tokens, $0.5000, 3 turns; limit 100 tokens, $0.25, 2 turns); the process group was ended" },
    ],
    [
      "budget trip beats an exit the backend calls success (sticky)",
      { trip: BUDGET, run: usedRun, limits: { maxTokens: 100 }, classify: never },
      { failure: "budget", reason: "budget exceeded (used 200 tokens, $0.5000, 3 turns; limit 100 tokens); the process group was ended" },
    ],
    [
      "budget trip beats a caller's cancel",
      { end: end("cancelled"), trip: BUDGET, callerAborted: true, limits: { maxTokens: 1 }, classify: never },
      { failure: "budget", reason: "budget exceeded (used 0 tokens; limit 1 tokens); the process group was ended" },
    ],
    [
      "hopeless retry: the transport failure it is",
      { end: end("cancelled"), trip: HOPELESS, classify: never },
      { failure: "transport", reason: "unavailable" },
    ],
    ["hopeless retry beats an exit too", { trip: HOPELESS, classify: never }, { failure: "transport", reason: "unavailable" }],
    [
      "hopeless retry yields to a caller's cancel",
      { end: end("cancelled"), trip: HOPELESS, callerAborted: true, classify: never },
      { failure: "cancelled", reason: "cancelled by the client" },
    ],
    [
      "hopeless retry yields, and a timeout is then a timeout",
      { end: end("timeout"), trip: HOPELESS, callerAborted: true, classify: never },
      { failure: "timeout", reason: "timed out; the process group was ended" },
    ],
  ];
  for (const [name, more, expected] of rows) {
    test(name, () => {
      expect(classifyAttempt(input(more))).toEqual(expected);
    });
  }

  test("the backend reads exactly what the transport reported", () => {
    let seen: ExitOutcome | undefined;
    const events = [{ kind: "final" as const, ok: false, message: "nope" }];
    classifyAttempt(
      input({ end: end("exit", { exitCode: 3, stderrTail: "err", rawStdoutTail: "plain" }), events, classify: (o) => ((seen = o), "task_failed") }),
    );
    expect(seen).toEqual({ exitCode: 3, signal: null, events, stderrTail: "err", rawStdoutTail: "plain" });
  });

  test("a failure gets the backend's explanation of the same outcome; a success and a silent backend none", () => {
    const explain = (o: ExitOutcome) => (o.stderrTail.includes("individual") ? "Gemini CLI no longer serves individual accounts: use agy" : undefined);
    const failing = input({ end: end("exit", { exitCode: 1, stderrTail: "not available for individual accounts" }), classify: reads("auth"), explain });
    expect(classifyAttempt(failing)).toEqual({
      failure: "auth",
      reason: "unavailable",
      evidence: "not available for individual accounts",
      explanation: "Gemini CLI no longer serves individual accounts: use agy",
    });
    expect(classifyAttempt({ ...failing, classify: reads(undefined) })).toEqual({ reason: "answered" });
    expect(classifyAttempt({ ...failing, end: end("exit", { exitCode: 1 }) })).toEqual({ failure: "auth", reason: "unavailable" });
    expect(classifyAttempt(input({ end: end("timeout"), classify: never, explain: () => "its own clock ran out" }))).toEqual({
      failure: "timeout",
      reason: "timed out; the process group was ended",
      explanation: "its own clock ran out",
    });
  });

  test("an unavailable class keeps the CLI's own words as evidence (redacted) beside the bare reason, for person-facing views", () => {
    const secret = `sk-ant-api03-${"b".repeat(90)}`;
    const run = foldEvents([
      { kind: "retry", message: "Reconnecting... 1/5 (unexpected status 503)", failure: "capacity" },
      { kind: "error", message: `status 503 key ${secret}` },
    ]);
    const out = classifyAttempt(input({ end: end("exit", { exitCode: 1 }), run, events: [], classify: reads("capacity") }));
    expect(out.reason).toBe("unavailable");
    expect(out.evidence).toStartWith("status 503 key ");
    expect(out.evidence).not.toContain("bbbb");
  });

  test("a detail is redacted before it is cut to 300 characters", () => {
    const secret = `sk-ant-api03-${"a".repeat(90)}`;
    const run = foldEvents([{ kind: "error", message: `${"x".repeat(250)} key ${secret}` }]);
    const { reason } = classifyAttempt(input({ end: end("exit", { exitCode: 1 }), run, classify: reads("task_failed") }));
    expect(reason).not.toContain("sk-ant-api03-aaaa");
    expect(reason.length).toBeLessThanOrEqual("task_failed (exit 1): ".length + 300);
  });
});
