/**
 * Migration 005: usage plots read an hourly rollup kept by triggers. Whatever the window, the
 * rollup answers exactly what the usage rows themselves would: a window that starts mid-hour,
 * a deleted consultation, a bucket that is not whole hours, and a store migrated from 004.
 */
import { describe, expect, test } from "bun:test";
import type { Store } from "../../src/store/db.ts";
import type { SeriesDimension, UsagePoint } from "../../src/store/index.ts";
import { mustOpen, tmpStorePath } from "./tmp.ts";
import { rewindSchema } from "./rewind.ts";

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 10, 1);

/** Six runs an hour over ten hours, of every tier and two agents, consult turns among them, some with a cost and some without. */
function fill(store: Store): string[] {
  const consultations: string[] = [];
  for (let i = 0; i < 60; i++) {
    const at = T0 + i * (HOUR / 6) + 7 * 60_000;
    const tier = (["light", "standard", "heavy"] as const)[Math.floor(i / 12) % 3] ?? "light";
    const other = Math.floor(i / 3) % 2 === 1;
    const runId = store.runs.startRun({ tool: "route", tier, cwd: "/p", prompt: `t${i}`, startedAt: at });
    store.runs.addAttempt({
      runId,
      n: 1,
      agentId: other ? "cheap" : "codex-main",
      backend: other ? "opencode" : "codex",
      provider: "p",
      outcome: "ok",
      reason: "answered",
      exitCode: 0,
      durationMs: 100 + i,
      fellBack: false,
      usage: { inputTokens: 10 * i, outputTokens: i, ...(i % 4 ? { costUsd: 0.25 } : {}) },
      createdAt: at + 1000,
    });
    store.runs.finishRun(runId, { status: "ok", endedAt: at + 1000 });
    if (i % 5 === 0) {
      const c = store.consultations.create({ agentId: "claude-opus", backend: "claude", model: "opus", now: at });
      store.consultations.addTurn(c, {
        prompt: "q",
        answer: { answer: "a" },
        modelVerified: "verified",
        usage: { inputTokens: 5 },
        latencyMs: 2000,
        now: at + 500,
      });
      consultations.push(c);
    }
  }
  return consultations;
}

/** The same aggregate straight from the usage rows, joined to runs for the tier, as before 005. */
function fromRows(store: Store, since: number, bucket: number, by: SeriesDimension): UsagePoint[] {
  const key = { agent: "u.agent_id", backend: "u.backend", tier: "CASE WHEN u.source = 'turn' THEN 'consult' ELSE coalesce(r.tier, 'none') END" }[by];
  return store.db
    .query<{ bucket: number; key: string; calls: number; i: number; o: number; c: number | null; l: number }, { since: number; bucket: number }>(
      `SELECT (u.created_at / $bucket) * $bucket AS bucket, ${key} AS key, count(*) AS calls, coalesce(sum(u.input_tokens), 0) AS i,
         coalesce(sum(u.output_tokens), 0) AS o, sum(u.cost_usd) AS c, avg(u.latency_ms) AS l
       FROM usage u LEFT JOIN runs r ON u.source = 'attempt' AND r.id = u.ref_id
       WHERE u.created_at >= $since GROUP BY bucket, key ORDER BY bucket, key`,
    )
    .all({ since, bucket })
    .map((r) => ({ bucket: r.bucket, key: r.key, calls: r.calls, inputTokens: r.i, outputTokens: r.o, costUsd: r.c, latencyMsAvg: Math.round(r.l) }));
}

const WINDOWS = [
  { since: T0, bucket: HOUR },
  { since: T0 + 3 * HOUR + 20 * 60_000, bucket: 6 * HOUR },
  { since: T0 + 5 * HOUR + 59 * 60_000, bucket: 24 * HOUR },
  { since: T0 + 90 * 60_000, bucket: 45 * 60_000 },
];

function expectSameAsRows(store: Store): void {
  for (const w of WINDOWS)
    for (const by of ["agent", "tier", "backend"] as const) {
      const got = store.series.usage({ since: w.since, bucketMs: w.bucket, by });
      expect({ w, by, got }).toEqual({ w, by, got: fromRows(store, w.since, w.bucket, by) });
    }
}

describe("usage rollup (migration 005)", () => {
  test("every window and dimension matches the usage rows, mid-hour starts and part-hour buckets included", () => {
    const store = mustOpen(tmpStorePath());
    fill(store);
    expect(store.db.query<{ n: number }, []>("SELECT count(*) AS n FROM usage_hourly").get()?.n).toBeLessThan(
      store.db.query<{ n: number }, []>("SELECT count(*) AS n FROM usage").get()?.n ?? 0,
    );
    expectSameAsRows(store);
    const tiers = new Set(store.series.usage({ since: T0, bucketMs: 24 * HOUR, by: "tier" }).map((p) => p.key));
    expect([...tiers].sort()).toEqual(["consult", "heavy", "light", "standard"]);
    store.close();
  });

  test("deleting consultations takes their calls out of the rollup; an emptied hour leaves no row", () => {
    const store = mustOpen(tmpStorePath());
    const consultations = fill(store);
    for (const id of consultations.slice(0, 3)) expect(store.consultations.delete(id)).toBe(true);
    expectSameAsRows(store);
    store.consultations.deleteAll();
    expectSameAsRows(store);
    expect(store.db.query<{ n: number }, []>("SELECT count(*) AS n FROM usage_hourly WHERE source = 'turn'").get()?.n).toBe(0);
    store.close();
  });

  test("a store at schema 4 is backfilled on open: tiers on its usage rows, its history in the rollup", () => {
    const path = tmpStorePath();
    const store = mustOpen(path);
    fill(store);
    // Back to what 004 left: no tier column, no rollup, no triggers (and no asks, from 006).
    rewindSchema(store.db, 4);
    store.close();
    const migrated = mustOpen(path);
    expect(migrated.db.query<{ n: number }, []>("SELECT count(*) AS n FROM usage WHERE source = 'attempt' AND tier IS NULL").get()?.n).toBe(0);
    expectSameAsRows(migrated);
    migrated.close();
  });
});
