/**
 * Several orchestrate servers share one SQLite file (one per MCP client). Four server processes
 * consulting, following up on each other's consultations and routing at once lose no row; a server
 * killed with SIGKILL in the middle of writing leaves a file that opens and passes integrity_check.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { connect, type ClientSession } from "../../fakes/lib/mcp-client.ts";
import { makeSandbox, type Sandbox } from "../../fakes/lib/sandbox.ts";
import { openStore } from "../../src/store/db.ts";
import { call, envOf } from "./consult-helpers.ts";

const CONFIG = `agents:
  cl: { backend: claude, model: claude-opus-5-5, scores: { coding: 90 } }
  cx: { backend: codex, model: gpt-5.5, scores: { coding: 10 } }
tiers: { light: [cl], standard: null, heavy: null }
`;
const SERVERS = 4;
const EACH = 5;

let box: Sandbox | undefined;
let sessions: ClientSession[] = [];
afterEach(async () => {
  await Promise.all(sessions.map((s) => s.close().catch(() => undefined)));
  sessions = [];
  box?.cleanup();
  box = undefined;
});

function count(db: Database, sql: string): number {
  return db.query<{ n: number }, []>(sql).get()?.n ?? 0;
}

async function workload(s: ClientSession, n: number, repo: string): Promise<string[]> {
  const consults = Array.from({ length: EACH }, (_, i) =>
    call(s, "consult", { prompt: `server ${n} question ${i}`, capability: "coding", agent: i % 2 ? "cx" : "cl" }),
  );
  const routes = Array.from({ length: EACH }, (_, i) => call(s, "route", { prompt: `server ${n} task ${i}`, cwd: repo, tier: "light" }));
  const [asked, routed] = await Promise.all([Promise.all(consults), Promise.all(routes)]);
  for (const r of [...asked, ...routed]) expect(r.isError, JSON.stringify(r.structuredContent)).toBeFalsy();
  return asked.map((r) => envOf(r).consultation_id as string);
}

describe("consult: one store, many servers", () => {
  test("four servers consulting, following up across processes and routing at once lose no row", async () => {
    box = makeSandbox({ ORCHESTRATE_HOST_RUNTIME: "gemini" });
    box.writeConfig(CONFIG);
    sessions = await Promise.all(Array.from({ length: SERVERS }, () => connect(box!.env)));
    const ids = await Promise.all(sessions.map((s, n) => workload(s, n, box!.repo)));
    // Each server continues a consultation another server started.
    const followUps = await Promise.all(
      sessions.map((s, n) => call(s, "consult", { prompt: `follow-up from ${n}`, capability: "coding", consultation_id: ids[(n + 1) % SERVERS]![0] })),
    );
    for (const r of followUps) expect(envOf(r).ok).toBe(true);
    await Promise.all(sessions.map((s) => s.close()));
    sessions = [];

    const db = new Database(box.dbPath, { readonly: true });
    try {
      const total = SERVERS * EACH;
      expect(count(db, "SELECT count(*) AS n FROM consultations")).toBe(total);
      expect(count(db, "SELECT count(*) AS n FROM turns")).toBe(total + SERVERS);
      expect(count(db, "SELECT count(*) AS n FROM consultations c WHERE (SELECT count(*) FROM turns t WHERE t.consultation_id = c.id) = 2")).toBe(SERVERS);
      expect(count(db, "SELECT count(*) AS n FROM runs WHERE tool = 'route' AND status = 'ok'")).toBe(total);
      expect(count(db, "SELECT count(*) AS n FROM attempts")).toBe(total);
      expect(count(db, "SELECT count(*) AS n FROM usage WHERE source = 'turn'")).toBe(total + SERVERS);
      expect(count(db, "SELECT count(*) AS n FROM usage WHERE source = 'attempt'")).toBe(total);
      expect(db.query<{ integrity_check: string }, []>("PRAGMA integrity_check").get()?.integrity_check).toBe("ok");
    } finally {
      db.close();
    }
  });

  test("a server killed with SIGKILL mid-write leaves a database that opens and passes integrity_check", async () => {
    box = makeSandbox({ ORCHESTRATE_HOST_RUNTIME: "gemini" });
    box.writeConfig(CONFIG);
    const victim = await connect(box.env);
    sessions = [victim];
    // Keep consults and routes in flight, so the store is being written when the kill lands.
    const inflight: Promise<unknown>[] = [];
    for (let i = 0; i < 24; i++) {
      inflight.push(call(victim, "consult", { prompt: `q${i}`, capability: "coding" }).catch(() => undefined));
      inflight.push(call(victim, "route", { prompt: `t${i}`, cwd: box.repo, tier: "light" }).catch(() => undefined));
    }
    await waitForRecordings(box, 6);
    process.kill(victim.pid as number, "SIGKILL");
    await Promise.all(inflight);
    sessions = [];

    const db = new Database(box.dbPath);
    try {
      expect(db.query<{ integrity_check: string }, []>("PRAGMA integrity_check").get()?.integrity_check).toBe("ok");
      expect(count(db, "SELECT count(*) AS n FROM consultations") + count(db, "SELECT count(*) AS n FROM runs")).toBeGreaterThan(0);
      // A turn is written with its usage row in one transaction: never one without the other.
      expect(
        count(
          db,
          "SELECT count(*) AS n FROM turns t WHERE NOT EXISTS (SELECT 1 FROM usage u WHERE u.source = 'turn' AND u.ref_id = t.consultation_id AND u.ref_n = t.n)",
        ),
      ).toBe(0);
    } finally {
      db.close();
    }
    // The next server opens it, marks the dead server's runs, and consults as usual.
    const store = openStore(box.dbPath);
    expect(store.ok).toBe(true);
    if (store.ok) store.value.close();
    const next = await connect(box.env);
    sessions = [next];
    expect(envOf(await call(next, "consult", { prompt: "after the crash", capability: "coding" })).ok).toBe(true);
  });
});

async function waitForRecordings(sandbox: Sandbox, n: number): Promise<void> {
  const until = Date.now() + 30_000;
  while (sandbox.recordings().length < n) {
    if (Date.now() > until) throw new Error(`fewer than ${n} CLI runs started`);
    await Bun.sleep(20);
  }
}
