import { describe, expect, test } from "bun:test";
import type { AgentEvent, Usage } from "../../src/backends/contract.ts";
import { foldEvents, type FoldedRun } from "../../src/backends/fold.ts";
import type { AgentLimits } from "../../src/config/types.ts";
import { attemptGuards, budgetGuard, GuardSet, hopelessRetryGuard, type Guard } from "../../src/runner/guards.ts";

const usage = (u: Usage): AgentEvent => ({ kind: "usage", usage: u });
const foldedWith = (u: Usage) => (): FoldedRun => ({ ...foldEvents([]), usage: u });

describe("one guard: event (+ folded usage) → trip", () => {
  const rows: [string, Guard, AgentEvent, Usage, string | undefined][] = [
    // name, guard, event, folded usage, expected guard that trips
    ["tokens over maxTokens", budgetGuard({ maxTokens: 100 }), usage({}), { inputTokens: 60, outputTokens: 41 }, "budget"],
    ["tokens exactly at maxTokens", budgetGuard({ maxTokens: 100 }), usage({}), { inputTokens: 60, outputTokens: 40 }, undefined],
    ["cost over maxCostUsd", budgetGuard({ maxCostUsd: 0.01 }), usage({}), { costUsd: 0.02 }, "budget"],
    ["cost unreported", budgetGuard({ maxCostUsd: 0.01 }), usage({}), { inputTokens: 5 }, undefined],
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
      expect(guard(event, foldedWith(folded))?.guard).toBe(expected as "budget" | "hopeless_retry" | undefined);
    });
  }

  test("what each trip asks for and stands for", () => {
    expect(budgetGuard({ maxTokens: 0 })(usage({}), foldedWith({ inputTokens: 1 }))).toEqual({ guard: "budget", stop: "budget_exceeded", failure: "budget", beatsCancel: true });
    expect(hopelessRetryGuard({ kind: "retry", message: "x", hopeless: true }, foldedWith({}))).toEqual({ guard: "hopeless_retry", stop: "cancelled", failure: "transport", beatsCancel: false });
  });

  test("the fold is read only for usage events", () => {
    let reads = 0;
    const folded = (): FoldedRun => (reads++, foldEvents([]));
    const guard = budgetGuard({ maxTokens: 10 });
    for (let i = 0; i < 100; i++) guard({ kind: "text", text: "t" }, folded);
    guard(usage({}), folded);
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
      const seen = events.map((e) => set.see(e, foldedWith(e.kind === "usage" ? e.usage : {})));
      expect(seen).toEqual(stops as typeof seen);
      expect(set.verdict()?.guard).toBe(verdict as "budget" | "hopeless_retry" | undefined);
    });
  }

  test("a set without guards never stops", () => {
    const set = new GuardSet([]);
    expect(set.see(over, foldedWith({ inputTokens: 1e9 }))).toBeUndefined();
    expect(set.verdict()).toBeUndefined();
  });
});
