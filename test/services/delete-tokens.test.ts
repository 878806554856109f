import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore, type Store } from "../../src/store/db.ts";
import { confirmDeleteAll, requestDeleteAll, TOKEN_TTL_MS } from "../../src/services/history/delete-tokens.ts";
import { countKind, deleteKind } from "../../src/services/history/index.ts";

let dir: string | undefined;
let store: Store | undefined;
afterEach(() => {
  store?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  store = undefined;
  dir = undefined;
});

function seeded(): Store {
  dir = mkdtempSync(join(tmpdir(), "orch-tokens-"));
  const opened = openStore(join(dir, "state", "orchestrate.db"));
  if (!opened.ok) throw new Error(opened.error.message);
  store = opened.value;
  const now = Date.now();
  for (const [i, age] of [0, 10, 40].entries()) {
    const at = now - age * 86_400_000;
    const id = store.consultations.create({ agentId: "a", backend: "codex", now: at });
    store.consultations.addTurn(id, { prompt: `q${i}`, modelVerified: "unverified", latencyMs: 1, now: at });
    const run = store.runs.startRun({ tool: "route", tier: "light", cwd: "/tmp", prompt: `t${i}`, startedAt: at });
    store.runs.finishRun(run, { status: "ok", endedAt: at });
  }
  store.runs.startRun({ tool: "route", cwd: "/tmp", prompt: "still running" });
  return store;
}

describe("delete-all confirm tokens", () => {
  test("a token expires after five minutes and is refused, deleting nothing", () => {
    const s = seeded();
    const now = Date.now();
    const { token } = requestDeleteAll(s, "consultations", now);
    const late = confirmDeleteAll(s, token, now + TOKEN_TTL_MS + 1);
    expect(late.ok).toBe(false);
    expect(s.consultations.count()).toBe(3);
  });

  test("a token deletes only its kind, once, within its lifetime", () => {
    const s = seeded();
    const now = Date.now();
    const { token, would_delete } = requestDeleteAll(s, "consultations", now);
    expect(would_delete).toEqual({ consultations: 3, runs: 0, reviews: 0, asks: 0, jobs: 0 });
    const done = confirmDeleteAll(s, token, now + TOKEN_TTL_MS - 1);
    expect(done.ok && done.value.deleted.consultations).toBe(3);
    expect(s.runs.countRuns()).toBe(3);
    expect(confirmDeleteAll(s, token, now).ok).toBe(false);
  });

  test("a failed confirm burns the token too", () => {
    const s = seeded();
    const now = Date.now();
    const { token } = requestDeleteAll(s, "all", now);
    expect(confirmDeleteAll(s, token, now + TOKEN_TTL_MS + 5).ok).toBe(false);
    expect(confirmDeleteAll(s, token, now).ok).toBe(false);
  });
});

describe("prune by age", () => {
  test("deletes only finished records older than the cutoff and never a running run", () => {
    const s = seeded();
    const cutoff = Date.now() - 30 * 86_400_000;
    expect(countKind(s, "all", cutoff)).toEqual({ consultations: 1, runs: 1, reviews: 0, asks: 0, jobs: 0 });
    expect(deleteKind(s, "all", cutoff).deleted).toMatchObject({ consultations: 1, runs: 1 });
    expect(s.consultations.list().map((c) => c.turnCount)).toEqual([1, 1]);
    expect(deleteKind(s, "all").deleted).toMatchObject({ consultations: 2, runs: 2 });
    // The running run stays: deleting it would leave its server writing into nothing.
    expect(s.runs.listRuns().map((r) => r.status)).toEqual(["running"]);
    expect(s.db.query<{ n: number }, []>("SELECT count(*) AS n FROM usage").get()?.n).toBe(0);
  });
});
