/** The dashboard's read-only queries: keyset paging and filters, windowed aggregates, and the model check of route attempts (migration 003). */
import { describe, expect, test } from "bun:test";
import { mustOpen, tmpStorePath } from "./tmp.ts";

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 10, 1);

function world() {
  const store = mustOpen(tmpStorePath());
  const run = (i: number, opts: { tier: "light" | "heavy"; ok: boolean; fellBack?: boolean }) => {
    const startedAt = T0 + i * HOUR;
    const runId = store.runs.startRun({ tool: "route", tier: opts.tier, cwd: "/p", prompt: `task ${i}`, startedAt });
    let n = 1;
    if (opts.fellBack)
      store.runs.addAttempt({
        runId,
        n: n++,
        agentId: "claude-opus",
        backend: "claude",
        provider: "anthropic",
        outcome: "capacity",
        reason: "unavailable",
        exitCode: 1,
        durationMs: 10,
        fellBack: true,
        createdAt: startedAt + 10,
      });
    store.runs.addAttempt({
      runId,
      n,
      agentId: "cheap",
      backend: "opencode",
      provider: "deepseek",
      model: "m-1",
      outcome: opts.ok ? "ok" : "timeout",
      reason: opts.ok ? "answered" : "timeout",
      exitCode: 0,
      durationMs: 100,
      fellBack: false,
      usage: { inputTokens: 10, outputTokens: 1, costUsd: 0.5 },
      createdAt: startedAt + 110,
      ...(opts.ok ? { modelVerification: "verified" as const, modelsReported: ["m-1"] } : {}),
    });
    store.runs.finishRun(runId, { status: opts.ok ? "ok" : "failed", endedAt: startedAt + 120 });
    return runId;
  };
  const made = [
    run(0, { tier: "light", ok: true }),
    run(1, { tier: "heavy", ok: true, fellBack: true }),
    run(2, { tier: "light", ok: false }),
    run(3, { tier: "heavy", ok: true }),
  ];
  /** The id of the i-th run made. */
  const ids = (i: number): string => made[i] ?? "";
  return { store, ids };
}

describe("browse", () => {
  test("newest first, keyset pages that neither skip nor repeat, filters by status, tier and attempting agent", () => {
    const { store, ids } = world();
    const first = store.browse.runs({ limit: 3 });
    expect(first.rows.map((r) => r.id)).toEqual([ids(3), ids(2), ids(1)]);
    expect(first.next).toBe(ids(1));
    const second = store.browse.runs({ limit: 3, before: first.next });
    expect(second.rows.map((r) => r.id)).toEqual([ids(0)]);
    expect(second.next).toBeUndefined();
    expect(store.browse.runs({ status: "failed" }).rows.map((r) => r.id)).toEqual([ids(2)]);
    expect(store.browse.runs({ tier: "heavy" }).rows.map((r) => r.id)).toEqual([ids(3), ids(1)]);
    const fellBack = store.browse.runs({ agent: "claude-opus" }).rows;
    expect(fellBack.map((r) => [r.id, r.attempts, r.fellBack])).toEqual([[ids(1), 2, true]]);
    store.close();
  });

  test("the data version moves when another connection writes, and only then", () => {
    const path = tmpStorePath();
    const writer = mustOpen(path);
    const reader = mustOpen(path, { readonly: true });
    const v0 = reader.browse.dataVersion();
    expect(reader.browse.dataVersion()).toBe(v0);
    writer.runs.startRun({ tool: "route", tier: "light", cwd: "/p", prompt: "x" });
    expect(reader.browse.dataVersion()).not.toBe(v0);
    reader.close();
    writer.close();
  });
});

describe("series", () => {
  test("rates per bucket: runs, failed, fell back; failure rate per agent; totals over a window", () => {
    const { store } = world();
    const rates = store.series.rates({ since: T0, bucketMs: 2 * HOUR });
    expect(rates).toEqual([
      { bucket: T0, runs: 2, failed: 0, fellBack: 1 },
      { bucket: T0 + 2 * HOUR, runs: 2, failed: 1, fellBack: 0 },
    ]);
    expect(store.series.agentRates({ since: T0 })).toEqual([
      { agentId: "cheap", calls: 4, failures: 1 },
      { agentId: "claude-opus", calls: 1, failures: 1 },
    ]);
    expect(store.series.totals({ since: T0 + 2 * HOUR })).toMatchObject({ runs: 2, failed: 1, fellBack: 0, running: 0 });
    store.close();
  });

  test("usage per agent, per tier, per backend, bucketed", () => {
    const { store } = world();
    const byTier = store.series.usage({ since: T0, bucketMs: 4 * HOUR, by: "tier" });
    expect(byTier.map((p) => [p.key, p.calls, p.costUsd])).toEqual([
      ["heavy", 3, 1],
      ["light", 2, 1],
    ]);
    expect(store.series.usage({ since: T0, bucketMs: 4 * HOUR, by: "backend" }).map((p) => p.key)).toEqual(["claude", "opencode"]);
    store.close();
  });
});

describe("route attempts keep their model check (migration 003)", () => {
  test("verification and the reported models round-trip; an attempt without them has neither", () => {
    const { store, ids } = world();
    const run = store.runs.getRun(ids(1));
    expect(run?.attempts.map((a) => [a.agentId, a.modelVerification, a.modelsReported])).toEqual([
      ["claude-opus", undefined, undefined],
      ["cheap", "verified", ["m-1"]],
    ]);
    store.close();
  });
});
