/**
 * Every ask that reached the service is in the history when it ends: answered (its legs in order,
 * the deployment's model and base-URL host, the usage row), out of budget, refused after the
 * boundary checks — and a store that cannot take it never costs the caller the reply.
 */
import { describe, expect, test } from "bun:test";
import { ask } from "../../src/services/ask/index.ts";
import type { Store } from "../../src/store/db.ts";
import { dep, provider, world } from "./ask-world.ts";

const p = provider();
let n = 0;
const m = (name: string) => `${name}-hist-${++n}`;
const host = new URL(p.url).host;

function only(store: Store) {
  const [row] = store.browse.asks().rows;
  const got = row ? store.asks.get(row.id) : undefined;
  if (!got) throw new Error("no ask stored");
  return got;
}

describe("ask: the history", () => {
  test("a full store: the answer still comes back, with a store_unavailable notice, and the ask is stored once the store takes writes", async () => {
    const name = m("full");
    const answer = "answer ".repeat(10_000);
    p.script(name, { kind: "ok", text: answer });
    const w = world(p, { capabilities: { fast: { deployments: [dep(p, name)] } }, cooldownSec: 0 });
    // No page may be added: the ask's record (its answer) is the first write, after the provider answered.
    const pages = w.rt.store.db.query<{ page_count: number }, []>("PRAGMA page_count").get()?.page_count ?? 0;
    w.rt.store.db.run(`PRAGMA max_page_count = ${pages}`);
    const reply = await ask(w.rt, { capability: "fast", prompt: "Say it at length." });
    expect(reply.envelope.ok).toBe(true);
    expect(reply.envelope.content).toBe(answer);
    expect(reply.store_notice).toContain("store_unavailable");
    expect(w.rt.store.browse.asks().rows.length).toBe(0);
    w.rt.store.db.run("PRAGMA max_page_count = 1073741823");
    const end = Date.now() + 10_000;
    while (w.rt.store.browse.asks().rows.length === 0 && Date.now() < end) await Bun.sleep(50);
    expect(only(w.rt.store).answer).toBe(answer);
  });

  test("an answer after a 429: the ask, both legs in order with status and outcome, host only, and its usage row", async () => {
    const first = m("limited");
    const second = m("answers");
    p.script(first, { kind: "status", status: 429 });
    p.script(second, { kind: "ok", text: "Paris." });
    const w = world(p, { capabilities: { fast: { deployments: [dep(p, first), dep(p, second, "anthropic")] } }, cooldownSec: 0 });
    const { envelope } = await ask(w.rt, { capability: "fast", prompt: "Capital of France?", system: "Be brief." });
    expect(envelope.ok).toBe(true);
    const got = only(w.rt.store);
    expect(got).toMatchObject({
      capability: "fast",
      status: "ok",
      model: `anthropic/${second}`,
      host,
      fallbackUsed: true,
      finishReason: "stop",
      inputTokens: 10,
      outputTokens: 20,
      prompt: "Capital of France?",
      system: "Be brief.",
      answer: "Paris.",
    });
    expect(got.latencyMs).toBe(envelope.latency_ms);
    expect(got.legs.map((l) => [l.n, l.model, l.host, l.outcome, l.errorCode, l.statusCode, l.retry])).toEqual([
      [1, `openai/${first}`, host, "failed", "rate_limited", 429, 0],
      [2, `anthropic/${second}`, host, "ok", null, 200, 0],
    ]);
    const usage = w.rt.store.db
      .query<{ source: string; agent_id: string; backend: string; model: string; ref_id: string }, []>(
        `SELECT source, agent_id, backend, model, ref_id FROM usage`,
      )
      .all();
    expect(usage).toEqual([{ source: "ask", agent_id: "fast", backend: "http", model: `anthropic/${second}`, ref_id: got.id }]);
  });

  test("a retry on the same deployment counts its earlier tries", async () => {
    const model = m("retried");
    p.script(model, { kind: "status", status: 503 }, { kind: "ok", text: "ok now" });
    const w = world(p, { capabilities: { fast: { deployments: [dep(p, model)] } }, retries: 1, cooldownSec: 0 });
    expect((await ask(w.rt, { capability: "fast", prompt: "q" })).envelope.ok).toBe(true);
    expect(only(w.rt.store).legs.map((l) => [l.outcome, l.statusCode, l.retry])).toEqual([
      ["failed", 503, 0],
      ["ok", 200, 1],
    ]);
  });

  test("the budget running out is stored as a failed ask with code timeout", async () => {
    const model = m("hang");
    p.script(model, { kind: "hang" });
    const w = world(p, { capabilities: { c: { deployments: [dep(p, model)] } } });
    const { envelope } = await ask(w.rt, { capability: "c", prompt: "q" }, { ceilingMs: 300 });
    expect(envelope.error?.code).toBe("timeout");
    const got = only(w.rt.store);
    expect(got).toMatchObject({ status: "failed", errorCode: "timeout", model: `openai/${model}` });
    expect(got.legs.map((l) => l.outcome)).toEqual(["failed"]);
  });

  test("a refusal after the boundary checks is stored, without legs and without usage", async () => {
    const w = world(p, { capabilities: { c: { deployments: [dep(p, m("never"))] } }, limits: { maxPromptChars: 5 } });
    const { envelope } = await ask(w.rt, { capability: "c", prompt: "far too long" });
    expect(envelope.error?.code).toBe("invalid_request");
    expect(only(w.rt.store)).toMatchObject({ status: "failed", errorCode: "invalid_request", legs: [], model: null });
    expect(w.rt.store.db.query<{ n: number }, []>(`SELECT count(*) AS n FROM usage`).get()?.n).toBe(0);
  });

  test("a store that refuses the write: the reply still goes out, and nothing throws", async () => {
    const model = m("store-broken");
    p.script(model, { kind: "ok", text: "still answered" });
    const w = world(p, { capabilities: { c: { deployments: [dep(p, model)] } } });
    const broken = {
      ...w.rt.store.asks,
      record: (): string => {
        throw new Error("database or disk is full");
      },
    };
    const rt = { ...w.rt, store: { ...w.rt.store, asks: broken } };
    const { envelope } = await ask(rt, { capability: "c", prompt: "q" });
    expect(envelope).toMatchObject({ ok: true, content: "still answered" });
  });

  test("metadata-only: prompt and answer are not kept, their lengths are", async () => {
    const model = m("meta");
    p.script(model, { kind: "ok", text: "Paris." });
    const w = world(p, { capabilities: { c: { deployments: [dep(p, model)] } } });
    w.rt.store.close();
    const { openStore } = await import("../../src/store/db.ts");
    const meta = openStore(w.dbPath, { fullContent: false });
    if (!meta.ok) throw new Error(meta.error.message);
    const rt = { ...w.rt, store: meta.value };
    await ask(rt, { capability: "c", prompt: "Capital?" });
    expect(only(meta.value)).toMatchObject({ prompt: null, answer: null, promptLength: 8, answerLength: 6 });
  });
});
