/**
 * The runner's one re-run of the same agent after a capacity failure (traits.capacityRerun, set by
 * gemini): only a run that failed on capacity having done nothing, with no wait asked for and time
 * left; the earlier run is kept, as it ended, for the trace.
 */
import { describe, expect, test } from "bun:test";
import type { Adapter, AgentEvent, RunRequest } from "../../src/backends/contract.ts";
import { claudeAdapter } from "../../src/backends/claude/index.ts";
import { foldEvents } from "../../src/backends/fold.ts";
import { runAttempt, type AttemptResult, type AttemptSpec } from "../../src/runner/attempt.ts";
import { rerunDelayMs, RERUN_MIN_LEFT_MS, type RerunFacts } from "../../src/runner/rerun.ts";
import type { Channel, TransportEnd, Transport } from "../../src/runner/transports/types.ts";
import { agent } from "../helpers/config.ts";

const line = (e: AgentEvent): string => JSON.stringify(e);
/** Exit 173 is a capacity failure, as gemini's 429 is; anything else non-zero a task failure. */
const rerunning: Adapter = {
  ...claudeAdapter,
  traits: { ...claudeAdapter.traits, capacityRerun: { delayMs: 20 } },
  parse: (l) => (l.startsWith("{") ? [JSON.parse(l) as AgentEvent] : []),
  classify: (o) => (o.exitCode === 0 ? undefined : o.exitCode === 173 ? "capacity" : "task_failed"),
};
const request: RunRequest = { mode: "answer", prompt: "p", cwd: "/tmp" };
const CAPACITY = { lines: [], end: { exitCode: 173 } };
const ANSWER = { lines: [line({ kind: "text", text: "PONG" })] };

/** A transport whose n-th run plays the n-th script. */
function runs(scripts: { lines: string[]; end?: Partial<TransportEnd> }[]): Transport & { count: () => number } {
  let n = 0;
  const channel = (): Channel => {
    const script = scripts[Math.min(n++, scripts.length - 1)] ?? CAPACITY;
    return {
      target: "/fake/cli",
      run: async (io) => {
        for (const l of script.lines) io.onLine(l);
        return { endReason: "exit", exitCode: 0, signal: null, stderrTail: "", rawStdoutTail: "", ...script.end };
      },
    };
  };
  return { kind: "fake", count: () => n, prepare: async ({ request: r }) => ({ ok: true, request: r, channel: channel() }) };
}

const spec = (t: Transport, more: Partial<AttemptSpec> = {}): AttemptSpec => ({
  agent: agent("a", "claude"),
  adapter: rerunning,
  request,
  env: {},
  timeoutMs: 60_000,
  fingerprint: false,
  transport: t,
  ...more,
  maxDepth: more.maxDepth ?? 3,
});

describe("runAttempt re-runs once where the backend asks", () => {
  test("a transient capacity failure: the re-run answers, the first run is kept for the trace", async () => {
    const t = runs([CAPACITY, ANSWER]);
    const result = await runAttempt(spec(t));
    expect(t.count()).toBe(2);
    expect(result.failure).toBeUndefined();
    expect(result.run.text).toBe("PONG");
    expect(result.reran?.map((r) => [r.failure, r.reason])).toEqual([["capacity", "unavailable; the same agent was run once more"]]);
  });

  test("a persistent one: run twice, never three times, and the second failure stands", async () => {
    const t = runs([CAPACITY, CAPACITY, ANSWER]);
    const result = await runAttempt(spec(t));
    expect(t.count()).toBe(2);
    expect(result).toMatchObject({ failure: "capacity", reason: "unavailable" });
    expect(result.reran).toHaveLength(1);
  });

  test("no re-run for a backend without the trait, another failure, or a run that acted", async () => {
    const plain = runs([CAPACITY, ANSWER]);
    expect((await runAttempt(spec(plain, { adapter: { ...rerunning, traits: claudeAdapter.traits } }))).failure).toBe("capacity");
    expect(plain.count()).toBe(1);
    const failing = runs([{ lines: [], end: { exitCode: 1 } }, ANSWER]);
    expect((await runAttempt(spec(failing))).failure).toBe("task_failed");
    expect(failing.count()).toBe(1);
    const acted = runs([{ lines: [line({ kind: "tool", name: "write_file", phase: "start", acts: true })], end: { exitCode: 173 } }, ANSWER]);
    expect((await runAttempt(spec(acted))).failure).toBe("capacity");
    expect(acted.count()).toBe(1);
  });

  test("a cancel during the pause keeps the first failure and starts nothing", async () => {
    const t = runs([CAPACITY, ANSWER]);
    const caller = new AbortController();
    const pending = runAttempt(
      spec(t, { adapter: { ...rerunning, traits: { ...claudeAdapter.traits, capacityRerun: { delayMs: 5_000 } } }, signal: caller.signal }),
    );
    await Bun.sleep(50);
    caller.abort("cancelled");
    const result = await pending;
    expect(result.failure).toBe("capacity");
    expect(t.count()).toBe(1);
  });
});

describe("rerunDelayMs: which failures may go again", () => {
  const first = (more: Partial<AttemptResult> = {}): AttemptResult => ({
    failure: "capacity",
    reason: "unavailable",
    run: foldEvents([]),
    events: [],
    exitCode: 173,
    durationMs: 1_000,
    spawned: true,
    stderrTail: "",
    request,
    side: { models: [] },
    treeBefore: "t",
    treeAfter: "t",
    ...more,
  });
  const facts = (more: Partial<RerunFacts> = {}): RerunFacts => ({
    traits: rerunning.traits,
    first: first(),
    fingerprinted: true,
    timeoutMs: 60_000,
    callerAborted: false,
    ...more,
  });
  test.each<[string, Partial<RerunFacts>, number | undefined]>([
    ["capacity, clean tree", {}, 20],
    ["the backend does not ask", { traits: claudeAdapter.traits }, undefined],
    ["auth is no capacity", { first: first({ failure: "auth" }) }, undefined],
    ["never spawned", { first: first({ spawned: false }) }, undefined],
    ["the provider asked for a wait", { first: first({ retryAfterSec: 20 }) }, undefined],
    ["the tree changed", { first: first({ treeAfter: "u" }) }, undefined],
    ["route mode without a fingerprint", { first: first({ treeBefore: undefined, treeAfter: undefined }) }, undefined],
    ["answer mode needs none", { fingerprinted: false, first: first({ treeBefore: undefined, treeAfter: undefined }) }, 20],
    ["the caller cancelled", { callerAborted: true }, undefined],
    ["too little time left", { timeoutMs: 1_000 + 20 + RERUN_MIN_LEFT_MS - 1 }, undefined],
  ])("%s", (_name, more, want) => {
    expect(rerunDelayMs(facts(more))).toBe(want);
  });
});
