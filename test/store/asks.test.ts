/**
 * Migration 006: asks and their legs, written in one transaction with a usage row (source 'ask',
 * agent = the capability, backend 'http') that migration 005's rollup keeps exact on insert and on
 * delete; content under the policy and the scrubber; keyset listing by status and capability.
 */
import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import type { Store } from "../../src/store/db.ts";
import type { AskInput } from "../../src/store/index.ts";
import { askListSql } from "../../src/store/browse/asks.ts";
import { SCHEMA_VERSION } from "../../src/store/migrations/index.ts";
import { mustOpen, rawBytes, SECRETS, tmpStorePath } from "./tmp.ts";
import { rewindSchema } from "./rewind.ts";

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 10, 2);

function anAsk(over: Partial<AskInput> = {}): AskInput {
  return { ...anAnsweredAsk(), ...over };
}

/** An ask that never reached a provider: no figures and no answer. */
function anUnsentAsk(over: Partial<AskInput>): AskInput {
  const { inputTokens: _in, outputTokens: _out, costUsd: _cost, answer: _answer, ...unsent } = anAnsweredAsk();
  return { ...unsent, ...over };
}

function anAnsweredAsk(): AskInput {
  return {
    capability: "fast",
    status: "ok",
    model: "openai/gpt-x",
    host: "127.0.0.1:4000",
    fallbackUsed: true,
    finishReason: "stop",
    latencyMs: 420,
    inputTokens: 10,
    outputTokens: 20,
    costUsd: 0.5,
    prompt: "Capital of France?",
    system: "Be brief.",
    answer: "Paris.",
    legs: [
      {
        capability: "fast",
        model: "openai/gpt-y",
        host: "127.0.0.1:4001",
        outcome: "failed",
        errorCode: "rate_limited",
        statusCode: 429,
        latencyMs: 30,
        retry: 0,
        endedAt: T0 + 30,
      },
      { capability: "fast", model: "openai/gpt-x", host: "127.0.0.1:4000", outcome: "ok", statusCode: 200, latencyMs: 390, retry: 0, endedAt: T0 + 420 },
    ],
    now: T0 + 420,
  };
}

function hourly(
  store: Store,
): { source: string; agent_id: string; backend: string; tier: string; calls: number; input_tokens: number; cost_usd: number | null }[] {
  return store.db
    .query<{ source: string; agent_id: string; backend: string; tier: string; calls: number; input_tokens: number; cost_usd: number | null }, []>(
      `SELECT source, agent_id, backend, tier, calls, input_tokens, cost_usd FROM usage_hourly WHERE source = 'ask' ORDER BY agent_id`,
    )
    .all();
}

describe("store: asks", () => {
  test("an ask is stored with its legs in order and one usage row that the hourly rollup counts", () => {
    const store = mustOpen(tmpStorePath());
    const id = store.asks.record(anAsk());
    const got = store.asks.get(id);
    expect(got).toMatchObject({
      capability: "fast",
      status: "ok",
      model: "openai/gpt-x",
      host: "127.0.0.1:4000",
      fallbackUsed: true,
      latencyMs: 420,
      inputTokens: 10,
      outputTokens: 20,
      prompt: "Capital of France?",
      system: "Be brief.",
      answer: "Paris.",
    });
    expect(got?.legs.map((l) => [l.n, l.model, l.outcome, l.errorCode, l.statusCode, l.retry])).toEqual([
      [1, "openai/gpt-y", "failed", "rate_limited", 429, 0],
      [2, "openai/gpt-x", "ok", null, 200, 0],
    ]);
    const usage = store.db
      .query<{ source: string; agent_id: string; backend: string; model: string; tier: string | null }, []>(
        `SELECT source, agent_id, backend, model, tier FROM usage`,
      )
      .all();
    expect(usage).toEqual([{ source: "ask", agent_id: "fast", backend: "http", model: "openai/gpt-x", tier: null }]);
    expect(hourly(store)).toEqual([{ source: "ask", agent_id: "fast", backend: "http", tier: "", calls: 1, input_tokens: 10, cost_usd: 0.5 }]);
    store.close();
  });

  test("a refusal that sent nothing is an ask without legs and without a usage row", () => {
    const store = mustOpen(tmpStorePath());
    const id = store.asks.record(
      anUnsentAsk({
        status: "failed",
        errorCode: "prompt_too_large",
        errorMessage: "prompt is 9 characters",
        model: null,
        host: null,
        legs: [],
      }),
    );
    expect(store.asks.get(id)).toMatchObject({ status: "failed", errorCode: "prompt_too_large", legs: [] });
    expect(store.db.query<{ n: number }, []>(`SELECT count(*) AS n FROM usage`).get()?.n).toBe(0);
    store.close();
  });

  test("usage series: per agent the capability, per backend http, per tier its own 'ask' series", () => {
    const store = mustOpen(tmpStorePath());
    store.asks.record(anAsk());
    store.asks.record(anAsk({ capability: "coding", now: T0 + HOUR + 5 }));
    const since = T0 - HOUR;
    const keys = (by: "agent" | "tier" | "backend") => [...new Set(store.series.usage({ since, bucketMs: HOUR, by }).map((p) => p.key))].sort();
    expect(keys("agent")).toEqual(["coding", "fast"]);
    expect(keys("backend")).toEqual(["http"]);
    expect(keys("tier")).toEqual(["ask"]);
    store.close();
  });

  test("deleting an ask removes its legs and usage row, and usage_hourly stays exact; deleteAll honours olderThan", () => {
    const store = mustOpen(tmpStorePath());
    const a = store.asks.record(anAsk());
    const b = store.asks.record(anAsk({ now: T0 + 2 * HOUR }));
    const c = store.asks.record(anAsk({ capability: "coding", now: T0 + 3 * HOUR }));
    expect(store.asks.delete(a)).toBe(true);
    expect(store.asks.delete(a)).toBe(false);
    expect(store.asks.get(a)).toBeUndefined();
    expect(store.db.query<{ n: number }, { id: string }>(`SELECT count(*) AS n FROM ask_legs WHERE ask_id = $id`).get({ id: a })?.n).toBe(0);
    expect(hourly(store).reduce((n, r) => n + r.calls, 0)).toBe(2);
    expect(store.asks.count({ olderThan: T0 + 3 * HOUR })).toBe(1);
    expect(store.asks.deleteAll({ olderThan: T0 + 3 * HOUR })).toBe(1);
    expect(store.asks.get(b)).toBeUndefined();
    expect(store.asks.get(c)).toBeDefined();
    expect(hourly(store)).toEqual([{ source: "ask", agent_id: "coding", backend: "http", tier: "", calls: 1, input_tokens: 10, cost_usd: 0.5 }]);
    expect(store.db.query<{ n: number }, []>(`SELECT count(*) AS n FROM usage`).get()?.n).toBe(1);
    store.close();
  });

  test("content is redacted before insert, and NULL under metadata-only (lengths kept)", () => {
    const path = tmpStorePath();
    const store = mustOpen(path);
    const id = store.asks.record(
      anAsk({
        prompt: `Why is ${SECRETS.github} refused?`,
        context: `key=${SECRETS.anthropic}`,
        answer: `It is ${SECRETS.github}`,
        errorMessage: `bad ${SECRETS.github}`,
      }),
    );
    const got = store.asks.get(id);
    expect(got?.prompt).toContain("[REDACTED");
    expect(got?.context).toContain("[REDACTED");
    store.close();
    for (const secret of Object.values(SECRETS)) expect(rawBytes(path).includes(secret)).toBe(false);
    const meta = mustOpen(tmpStorePath(), { fullContent: false });
    const m = meta.asks.get(meta.asks.record(anAsk()));
    expect(m).toMatchObject({ prompt: null, system: null, answer: null, promptLength: "Capital of France?".length, answerLength: "Paris.".length });
    meta.close();
  });

  test("the listing pages by keyset, newest first, and filters by status and capability", () => {
    const store = mustOpen(tmpStorePath());
    for (let i = 0; i < 5; i++) store.asks.record(anAsk({ capability: i % 2 ? "coding" : "fast", status: i === 4 ? "failed" : "ok", now: T0 + i * 1000 }));
    const first = store.browse.asks({ limit: 2 });
    expect(first.rows.map((r) => r.createdAt)).toEqual([T0 + 4000, T0 + 3000]);
    const second = store.browse.asks({ limit: 2, ...(first.next ? { before: first.next } : {}) });
    expect(second.rows.map((r) => r.createdAt)).toEqual([T0 + 2000, T0 + 1000]);
    expect(store.browse.asks({ capability: "coding" }).rows).toHaveLength(2);
    expect(store.browse.asks({ status: "failed" }).rows.map((r) => r.createdAt)).toEqual([T0 + 4000]);
    expect(first.rows[0]).toMatchObject({ legs: 2, inputTokens: 10, model: "openai/gpt-x", promptHead: "Capital of France?" });
    store.close();
  });

  test("the failure rate per agent counts each ask that called a provider under its capability; a refusal that sent nothing is no call", () => {
    const store = mustOpen(tmpStorePath());
    store.asks.record(anAsk());
    store.asks.record(anAsk({ status: "failed", errorCode: "rate_limited" }));
    store.asks.record(
      anAsk({
        capability: "deep",
        legs: [{ capability: "deep", model: "m", host: null, outcome: "failed", errorCode: "auth", statusCode: 401, latencyMs: 5, retry: 0, endedAt: T0 + 5 }],
        status: "failed",
        errorCode: "auth",
      }),
    );
    store.asks.record(anAsk({ capability: "deep", status: "failed", errorCode: "no_deployment", legs: [] }));
    store.asks.record(anAsk({ capability: "old", now: T0 - 10_000 }));
    expect(store.series.agentRates({ since: T0 })).toEqual([
      { agentId: "deep", calls: 1, failures: 1 },
      { agentId: "fast", calls: 2, failures: 1 },
    ]);
    store.close();
  });

  test("every listing filter is an index search from the page's bound, never a scan (page 1000 costs page 1)", () => {
    const store = mustOpen(tmpStorePath());
    const plan = (filter: { status?: "ok" | "failed"; capability?: string }) =>
      store.db
        .query<{ detail: string }, Record<string, string | number | null>>(`EXPLAIN QUERY PLAN ${askListSql(filter)}`)
        .all({
          before: "X",
          limit: 51,
          head: 140,
          ...(filter.status ? { status: filter.status } : {}),
          ...(filter.capability ? { capability: filter.capability } : {}),
        })
        .map((r) => r.detail);
    expect(plan({})[0]).toBe("SEARCH a USING INDEX asks_created ((created_at,id)<(?,?))");
    expect(plan({ status: "failed" })[0]).toBe("SEARCH a USING INDEX asks_status_created (status=? AND (created_at,id)<(?,?))");
    expect(plan({ capability: "fast" })[0]).toBe("SEARCH a USING INDEX asks_capability_created (capability=? AND (created_at,id)<(?,?))");
    for (const f of [{}, { status: "ok" as const }, { capability: "fast" }, { status: "ok" as const, capability: "fast" }])
      expect(plan(f).some((d) => d.startsWith("SCAN"))).toBe(false);
    store.close();
  });

  test("a store at schema 5 migrates to the latest schema and keeps its usage rows", () => {
    const path = tmpStorePath();
    const old = mustOpen(path);
    old.consultations.addTurn(old.consultations.create({ agentId: "cl", backend: "claude" }), { prompt: "q", modelVerified: "verified", latencyMs: 5 });
    old.close();
    const raw = new Database(path);
    rewindSchema(raw, 5);
    raw.close();
    const store = mustOpen(path);
    expect(store.db.query<{ user_version: number }, []>("PRAGMA user_version").get()?.user_version).toBe(SCHEMA_VERSION);
    expect(store.db.query<{ n: number }, []>(`SELECT count(*) AS n FROM usage WHERE source = 'turn'`).get()?.n).toBe(1);
    expect(store.asks.get(store.asks.record(anAsk()))).toBeDefined();
    store.close();
  });
});
