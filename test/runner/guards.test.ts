import { describe, expect, test } from "bun:test";
import type { AgentEvent, Usage } from "../../src/backends/contract.ts";
import { foldEvents, type FoldedRun } from "../../src/backends/fold.ts";
import type { AgentLimits } from "../../src/config/types.ts";
import {
  attemptGuards,
  budgetGuard,
  CAPACITY_QUIET_MS,
  capacityRetryGuard,
  GuardSet,
  hopelessRetryGuard,
  webTurnGuard,
  type Guard,
} from "../../src/runner/guards.ts";

const usage = (u: Usage): AgentEvent => ({ kind: "usage", usage: u });
const foldedWith = (u: Usage) => (): FoldedRun => ({ ...foldEvents([]), usage: u });

describe("one guard: event (+ folded usage) → trip", () => {
  const rows: [string, Guard, AgentEvent, Usage, string | undefined][] = [
    // name, guard, event, folded usage, expected guard that trips
    ["tokens over maxTokens", budgetGuard({ maxTokens: 100 }), usage({}), { inputTokens: 60, outputTokens: 41 }, "budget"],
    ["tokens exactly at maxTokens", budgetGuard({ maxTokens: 100 }), usage({}), { inputTokens: 60, outputTokens: 40 }, undefined],
    ["cost over maxCostUsd", budgetGuard({ maxCostUsd: 0.01 }), usage({}), { costUsd: 0.02 }, "budget"],
    ["cost unreported", budgetGuard({ maxCostUsd: 0.01 }), usage({}), { inputTokens: 5 }, undefined],
    // An unreported cost priced from the tokens ($1 per token here): held to the limit as an estimate.
    ["cost estimated over maxCostUsd", budgetGuard({ maxCostUsd: 0.01 }, (u) => u.inputTokens), usage({}), { inputTokens: 5 }, "budget"],
    ["a reported cost is not re-estimated", budgetGuard({ maxCostUsd: 0.01 }, (u) => u.inputTokens), usage({}), { inputTokens: 5, costUsd: 0.001 }, undefined],
    ["turns over maxTurns", budgetGuard({ maxTurns: 2 }), usage({}), { turns: 3 }, "budget"],
    ["no limits at all", budgetGuard({}), usage({}), { inputTokens: 1e9, costUsd: 1e6, turns: 1e6 }, undefined],
    ["over, but on a non-usage event", budgetGuard({ maxTokens: 1 }), { kind: "text", text: "hi" }, { inputTokens: 50 }, undefined],
    ["the folded usage decides, not the event's own", budgetGuard({ maxTokens: 100 }), usage({ inputTokens: 1 }), { inputTokens: 200 }, "budget"],
    ["a hopeless retry", hopelessRetryGuard, { kind: "retry", message: "waiting for network", hopeless: true }, {}, "hopeless_retry"],
    ["an ordinary retry", hopelessRetryGuard, { kind: "retry", message: "429, retrying" }, {}, undefined],
    ["an error event is not a retry", hopelessRetryGuard, { kind: "error", message: "offline" }, {}, undefined],
  ];
  for (const [name, guard, event, folded, expected] of rows) {
    test(name, () => {
      expect(guard.see(event, foldedWith(folded), 0)?.guard).toBe(expected as "budget" | "hopeless_retry" | undefined);
    });
  }

  test("web turns: the call that spends the limit runs, the next one trips; ends and other tools do not count", () => {
    const guard = webTurnGuard(2);
    const search = (phase: "start" | "end"): AgentEvent => ({ kind: "tool", name: "web_search", phase, acts: false, web: "search" });
    const seen = [search("start"), search("end"), { kind: "tool", name: "Read", phase: "start", acts: false } as const, search("start"), search("end")].map(
      (e) => guard.see(e, foldedWith({}), 0),
    );
    expect(seen.every((t) => t === undefined)).toBe(true);
    expect(guard.see(search("start"), foldedWith({}), 0)).toEqual({ guard: "budget", stop: "budget_exceeded", failure: "budget", beatsCancel: true });
    expect(attemptGuards({}).length + 1).toBe(attemptGuards({}, CAPACITY_QUIET_MS, 2).length);
  });

  test("what each trip asks for and stands for", () => {
    expect(budgetGuard({ maxTokens: 0 }).see(usage({}), foldedWith({ inputTokens: 1 }), 0)).toEqual({
      guard: "budget",
      stop: "budget_exceeded",
      failure: "budget",
      beatsCancel: true,
    });
    expect(hopelessRetryGuard.see({ kind: "retry", message: "x", hopeless: true }, foldedWith({}), 0)).toEqual({
      guard: "hopeless_retry",
      stop: "cancelled",
      failure: "transport",
      beatsCancel: false,
    });
  });

  test("the fold is read only for usage events", () => {
    let reads = 0;
    const folded = (): FoldedRun => (reads++, foldEvents([]));
    const guard = budgetGuard({ maxTokens: 10 });
    for (let i = 0; i < 100; i++) guard.see({ kind: "text", text: "t" }, folded, 0);
    guard.see(usage({}), folded, 0);
    expect(reads).toBe(1);
  });
});

describe("GuardSet: stops once per guard, verdict by guard order", () => {
  const limits: AgentLimits = { maxTokens: 100 };
  const over = usage({ inputTokens: 500 });
  const hopeless: AgentEvent = { kind: "retry", message: "waiting for network", hopeless: true };
  const rows: [string, AgentEvent[], (string | undefined)[], string | undefined][] = [
    // name, events fed, stop returned per event, verdict
    ["nothing trips", [{ kind: "text", text: "a" }, usage({ inputTokens: 5 })], [undefined, undefined], undefined],
    ["a budget trip stops once, and stays (sticky)", [over, over, usage({ inputTokens: 1 })], ["budget_exceeded", undefined, undefined], "budget"],
    ["a hopeless retry stops once", [hopeless, hopeless], ["cancelled", undefined], "hopeless_retry"],
    ["hopeless first, then budget: both stop, budget is the verdict", [hopeless, over], ["cancelled", "budget_exceeded"], "budget"],
    ["budget first, then hopeless: budget is the verdict", [over, hopeless], ["budget_exceeded", "cancelled"], "budget"],
  ];
  for (const [name, events, stops, verdict] of rows) {
    test(name, () => {
      const set = new GuardSet(attemptGuards(limits));
      // Each usage event here carries the whole folded usage, as a cumulative report would.
      const seen = events.map((e) => set.see(e, foldedWith(e.kind === "usage" ? e.usage : {}), 0));
      expect(seen).toEqual(stops as typeof seen);
      expect(set.verdict()?.guard).toBe(verdict as "budget" | "hopeless_retry" | undefined);
    });
  }

  test("a set without guards never stops", () => {
    const set = new GuardSet([]);
    expect(set.see(over, foldedWith({ inputTokens: 1e9 }), 0)).toBeUndefined();
    expect(set.verdict()).toBeUndefined();
  });
});

/**
 * The capacity guard over a timeline: each step is an event at a time (ms since spawn), or a tick of
 * the clock with no event. The answer is the time it trips at, or undefined for "runs on".
 */
describe("capacity guard: a retry loop ends fast, a recovered transient runs on", () => {
  type Step = [number, AgentEvent | "tick"];
  const capacity = (retryAfterSec?: number): AgentEvent => ({
    kind: "retry",
    message: "429, retrying",
    failure: "capacity",
    ...(retryAfterSec !== undefined ? { retryAfterSec } : {}),
  });
  const transport: AgentEvent = { kind: "retry", message: "stream disconnected", failure: "transport" };
  const notice: AgentEvent = { kind: "retry", message: "Model metadata for `x` not found" };
  const text: AgentEvent = { kind: "text", text: "PONG" };
  const edit: AgentEvent = { kind: "tool", name: "Bash", phase: "start", acts: true };
  const read: AgentEvent = { kind: "tool", name: "Read", phase: "start", acts: false };
  const failedAttempt: AgentEvent = { kind: "error", message: "429 Rate limit reached", failure: "capacity" };
  const q = CAPACITY_QUIET_MS;
  const rows: [string, Step[], number | undefined][] = [
    // Timings from research/retries-and-trust.md and transcripts/retries/.
    [
      "codex 429: Reconnecting 1/5 at 0.46 s, 2/5 at 1.49 s → the second consecutive signal",
      [
        [460, capacity()],
        [1490, capacity()],
      ],
      1490,
    ],
    [
      "codex transient 429: the same first line, the answer 1.03 s later",
      [
        [414, capacity()],
        [1449, text],
        [1466, { kind: "final", ok: true }],
        [1414 + q, "tick"],
      ],
      undefined,
    ],
    [
      "opencode transient 503: its stderr line, then step_start 2.39 s later",
      [
        [4615, capacity()],
        [7005, { kind: "step" }],
        [4615 + q, "tick"],
      ],
      undefined,
    ],
    [
      "opencode 429: stream error lines 1.0 s apart",
      [
        [6102, capacity()],
        [7144, capacity()],
      ],
      7144,
    ],
    [
      "claude transient 529: api_retry, the answer 0.61 s later",
      [
        [878, capacity(0.59)],
        [1485, text],
        [20_000, "tick"],
      ],
      undefined,
    ],
    ["claude with retry-after 20: the announced wait is the answer", [[700, capacity(20)]], 700],
    [
      "a retry-after just under the window waits for the window",
      [
        [0, capacity(q / 1000 - 1)],
        [q - 1, "tick"],
        [q, "tick"],
      ],
      q,
    ],
    [
      "one signal and then silence: the window",
      [
        [500, capacity()],
        [500 + q - 1, "tick"],
        [500 + q, "tick"],
      ],
      500 + q,
    ],
    [
      "pi: a failed attempt's error between two auto_retry_start lines is no progress",
      [
        [2300, failedAttempt],
        [2300, capacity()],
        [6300, failedAttempt],
        [6300, capacity()],
      ],
      6300,
    ],
    [
      "progress between two signals: two transients, not one loop",
      [
        [0, capacity()],
        [1000, text],
        [5000, capacity()],
        [6000, text],
        [30_000, "tick"],
      ],
      undefined,
    ],
    [
      "a read-only tool is progress too",
      [
        [0, capacity()],
        [1000, read],
        [2000, capacity()],
        [2000 + q - 1, "tick"],
      ],
      undefined,
    ],
    [
      "a failed final is no progress",
      [
        [0, capacity()],
        [10, { kind: "final", ok: false, message: "x" }],
        [q, "tick"],
      ],
      q,
    ],
    [
      "transport retries and plain notices are not capacity signals",
      [
        [0, transport],
        [10, notice],
        [20, transport],
        [60_000, "tick"],
      ],
      undefined,
    ],
    [
      "a notice between two capacity signals does not break the run of them",
      [
        [0, capacity()],
        [10, notice],
        [1000, capacity()],
      ],
      1000,
    ],
    [
      "a run that acted never trips: it cannot fall back, and may still recover",
      [
        [0, edit],
        [10, capacity()],
        [20, capacity(60)],
        [60_000, "tick"],
      ],
      undefined,
    ],
    [
      "acting after the first signal calls the watch off",
      [
        [0, capacity()],
        [500, edit],
        [900, capacity()],
        [60_000, "tick"],
      ],
      undefined,
    ],
  ];
  for (const [name, steps, expected] of rows) {
    test(name, () => {
      const set = new GuardSet([capacityRetryGuard()]);
      let trippedAt: number | undefined;
      for (const [at, step] of steps) {
        const stop = step === "tick" ? set.tick(at) : set.see(step, () => foldEvents([]), at);
        if (stop && trippedAt === undefined) trippedAt = at;
      }
      expect(trippedAt).toBe(expected);
      if (expected !== undefined) expect(set.verdict()).toEqual({ guard: "capacity_retry", stop: "cancelled", failure: "capacity", beatsCancel: false });
    });
  }

  test("it says when it is due, and stops being due once it tripped or saw progress", () => {
    const set = new GuardSet([capacityRetryGuard(1000)]);
    expect(set.nextDue()).toBeUndefined();
    set.see(capacity(), () => foldEvents([]), 50);
    expect(set.nextDue()).toBe(1050);
    set.see(text, () => foldEvents([]), 60);
    expect(set.nextDue()).toBeUndefined();
    set.see(capacity(), () => foldEvents([]), 70);
    expect(set.tick(1069)).toBeUndefined();
    expect(set.tick(1070)).toBe("cancelled");
    expect(set.nextDue()).toBeUndefined();
  });

  test("the window is the one the research justifies, and each attempt gets a fresh guard", () => {
    expect(CAPACITY_QUIET_MS).toBe(8000);
    const [first, second] = [attemptGuards({}), attemptGuards({})];
    first[2]?.see(capacity(), () => foldEvents([]), 0);
    expect(first[2]?.due?.()?.at).toBe(8000);
    expect(second[2]?.due?.()).toBeUndefined();
  });
});
