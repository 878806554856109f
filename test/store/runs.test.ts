import { describe, expect, test } from "bun:test";
import { mustOpen, tmpStorePath } from "./tmp.ts";

describe("runs and attempts", () => {
  test("start → attempts → finish → get returns the whole trace", () => {
    const store = mustOpen(tmpStorePath());
    const id = store.runs.startRun({ tool: "route", tier: "heavy", cwd: "/w/p", prompt: "fix the bug", startedAt: 1000 });
    store.runs.addAttempt({
      runId: id,
      n: 1,
      agentId: "codex-high",
      backend: "codex",
      model: "gpt-5.1",
      provider: "openai",
      outcome: "capacity",
      reason: "rate limited at launch",
      exitCode: 1,
      durationMs: 120,
      fellBack: true,
    });
    store.runs.addAttempt({
      runId: id,
      n: 2,
      agentId: "claude-opus",
      backend: "claude",
      provider: "anthropic",
      outcome: "ok",
      reason: "",
      exitCode: 0,
      durationMs: 5000,
      sessionId: "sess-1",
      usage: { inputTokens: 10, outputTokens: 20, costUsd: 0.5 },
      fellBack: false,
    });
    expect(store.runs.finishRun(id, { status: "ok", servedBy: "claude-opus", answer: "done", treeChanged: true, endedAt: 9000 })).toBe(true);
    // The first finish wins: a late cancel does not overwrite the outcome.
    expect(store.runs.finishRun(id, { status: "cancelled" })).toBe(false);

    const run = store.runs.getRun(id);
    expect(run).toMatchObject({
      id,
      tool: "route",
      tier: "heavy",
      status: "ok",
      servedBy: "claude-opus",
      answer: "done",
      treeChanged: true,
      endedAt: 9000,
      pid: process.pid,
      attemptCount: 2,
    });
    expect(run?.attempts.map((a) => [a.n, a.agentId, a.outcome, a.fellBack])).toEqual([
      [1, "codex-high", "capacity", true],
      [2, "claude-opus", "ok", false],
    ]);
    expect(run?.attempts[1]?.usage).toEqual({ inputTokens: 10, outputTokens: 20, costUsd: 0.5 });
    expect(run?.attempts[1]?.sessionId).toBe("sess-1");
    store.close();
  });

  test("an attempt for an unknown run is rejected (foreign keys on)", () => {
    const store = mustOpen(tmpStorePath());
    expect(() =>
      store.runs.addAttempt({
        runId: "nope",
        n: 1,
        agentId: "a",
        backend: "codex",
        provider: "openai",
        outcome: "ok",
        reason: "",
        exitCode: 0,
        durationMs: 1,
        fellBack: false,
      }),
    ).toThrow();
    store.close();
  });

  test("listRuns pages newest first with a before cursor", () => {
    const store = mustOpen(tmpStorePath());
    const ids = [1, 2, 3, 4, 5].map((t) => store.runs.startRun({ tool: "run-cli", cwd: "/w", prompt: `p${t}`, startedAt: t * 1000 }));
    const page1 = store.runs.listRuns({ limit: 2 });
    expect(page1.map((r): string | undefined => r.id)).toEqual([ids[4], ids[3]]);
    const page2 = store.runs.listRuns({ limit: 2, before: page1[1]?.id });
    expect(page2.map((r): string | undefined => r.id)).toEqual([ids[2], ids[1]]);
    const page3 = store.runs.listRuns({ limit: 2, before: page2[1]?.id });
    expect(page3.map((r): string | undefined => r.id)).toEqual([ids[0]]);
    store.close();
  });

  test("usage summary per agent, with since and skipped attempts not counted", () => {
    const store = mustOpen(tmpStorePath());
    const id = store.runs.startRun({ tool: "route", cwd: "/w", prompt: "p" });
    const base = { runId: id, backend: "codex", provider: "openai", reason: "", exitCode: 0, fellBack: false } as const;
    store.runs.addAttempt({ ...base, n: 1, agentId: "a", outcome: "skipped", durationMs: 0, createdAt: 100 });
    store.runs.addAttempt({
      ...base,
      n: 2,
      agentId: "a",
      outcome: "ok",
      durationMs: 100,
      usage: { inputTokens: 5, outputTokens: 7, costUsd: 0.25 },
      createdAt: 200,
    });
    store.runs.addAttempt({ ...base, n: 3, agentId: "a", outcome: "ok", durationMs: 300, usage: { inputTokens: 1 }, createdAt: 300 });
    store.runs.addAttempt({ ...base, n: 4, agentId: "b", outcome: "timeout", durationMs: 50, createdAt: 50 });
    const all = store.usage.summary();
    expect(all).toEqual([
      {
        agentId: "a",
        calls: 2,
        inputTokens: 6,
        outputTokens: 7,
        cachedInputTokens: 0,
        costUsd: 0.25,
        costReportedCalls: 1,
        latencyMsTotal: 400,
        latencyMsAvg: 200,
      },
      {
        agentId: "b",
        calls: 1,
        inputTokens: 0,
        outputTokens: 0,
        cachedInputTokens: 0,
        costUsd: null,
        costReportedCalls: 0,
        latencyMsTotal: 50,
        latencyMsAvg: 50,
      },
    ]);
    expect(store.usage.summary({ since: 250 }).map((s) => [s.agentId, s.calls])).toEqual([["a", 1]]);
    store.close();
  });

  test("reconcileOrphans fails runs whose server pid is dead, leaves live and finished ones", () => {
    const store = mustOpen(tmpStorePath());
    const dead = store.runs.startRun({ tool: "route", cwd: "/w", prompt: "p", pid: 999_999_999 });
    const live = store.runs.startRun({ tool: "route", cwd: "/w", prompt: "p" });
    const done = store.runs.startRun({ tool: "route", cwd: "/w", prompt: "p", pid: 999_999_999 });
    store.runs.finishRun(done, { status: "ok" });
    expect(store.runs.reconcileOrphans((pid) => pid === process.pid)).toEqual([dead]);
    expect(store.runs.getRun(dead)).toMatchObject({ status: "failed", errorCode: "server_died" });
    expect(store.runs.getRun(live)?.status).toBe("running");
    expect(store.runs.getRun(done)?.status).toBe("ok");
    store.close();
  });
});
