/**
 * Volume version of "several server processes share one store" (test/store/concurrency.test.ts
 * proves it with bare writers): real MCP servers routing concurrently through real fakes against
 * one SQLite file (ORCHESTRATE_DB shared), plus one server SIGKILLed while its routes are in
 * flight. Every answered route must be in the store exactly once, the killed server's committed
 * rows must all be there (and none invented), and the file must pass integrity_check.
 */
import { afterAll, expect, test } from "bun:test";
import { connect, type ClientSession, type ToolReply } from "../../fakes/lib/mcp-client.ts";
import { makeSandbox, type Sandbox } from "../../fakes/lib/sandbox.ts";
import { openStore } from "../../src/store/db.ts";
import { alive, elapsed, scale, waitFor } from "./helpers.ts";

const SERVERS = 4;
const CALLS = scale(10, 50);
const PER_SERVER_CONCURRENCY = 2;

const CONFIG = `agents:
  fast: { backend: claude, model: opus }
tiers: { light: null, standard: [fast], heavy: null }
`;

let box: Sandbox | undefined;
const sessions: ClientSession[] = [];

afterAll(async () => {
  for (const s of sessions) await s.close().catch(() => undefined);
  box?.cleanup();
});

async function routeOnce(s: ClientSession, prompt: string): Promise<boolean> {
  const reply = (await s.client.callTool({ name: "route", arguments: { prompt, cwd: box!.repo, tier: "standard" } }, undefined, {
    timeout: 120_000,
  })) as ToolReply;
  if (reply.isError) throw new Error(`route failed: ${JSON.stringify(reply.structuredContent)}`);
  return true;
}

/** `calls` routes tagged `tag`, `PER_SERVER_CONCURRENCY` at a time; returns the answered prompts. */
async function drive(s: ClientSession, tag: string, calls: number, issued: string[], answered: string[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < calls) {
      const prompt = `${tag} call ${next++}`;
      issued.push(prompt);
      if (await routeOnce(s, prompt)) answered.push(prompt);
    }
  };
  await Promise.all(Array.from({ length: PER_SERVER_CONCURRENCY }, worker));
}

test(
  `${SERVERS} servers route concurrently on one store while a fifth is SIGKILLed mid-write: no row lost`,
  async () => {
    const started = performance.now();
    box = makeSandbox({});
    box.writeConfig(CONFIG);
    const servers = await Promise.all(Array.from({ length: SERVERS }, () => connect(box!.env)));
    const victim = await connect(box.env);
    sessions.push(...servers, victim);

    const answered = servers.map(() => [] as string[]);
    const survivors = Promise.all(servers.map((s, k) => drive(s, `srv${k}`, CALLS, [], answered[k] as string[])));

    // The victim keeps routing until it has answered a few, then dies with routes in flight.
    const victimIssued: string[] = [];
    const victimAnswered: string[] = [];
    const victimDone = drive(victim, "victim", 10_000, victimIssued, victimAnswered).catch(() => undefined);
    await waitFor(() => (victimAnswered.length >= 3 && victimIssued.length > victimAnswered.length ? true : undefined), 60_000, "the victim to be mid-write");
    const victimPid = victim.pid!;
    process.kill(victimPid, "SIGKILL");
    const answeredBeforeKill = [...victimAnswered];
    await waitFor(() => (alive(victimPid) ? undefined : true), 10_000, "the victim to die");
    await victimDone;
    await survivors;

    // A fresh server reconciles the victim's in-flight runs (its pid is dead) and still answers.
    const late = await connect(box.env);
    sessions.push(late);
    expect(((await late.client.callTool({ name: "list_tiers", arguments: {} })) as ToolReply).isError).toBeFalsy();
    for (const s of sessions) await s.close().catch(() => undefined);

    const store = openStore(box.dbPath);
    if (!store.ok) throw new Error(store.error.message);
    try {
      const db = store.value.db;
      expect(db.query<{ integrity_check: string }, []>("PRAGMA integrity_check").get()?.integrity_check).toBe("ok");
      const runs = store.value.runs.listRuns({ limit: 100_000 });
      const byTag = (tag: string) => runs.filter((r) => r.prompt?.startsWith(`${tag} call `));
      for (const [k, prompts] of answered.entries()) {
        const rows = byTag(`srv${k}`);
        // Exactly one row per answered call: nothing lost, nothing doubled.
        expect(rows.map((r) => r.prompt).sort()).toEqual([...prompts].sort());
        expect(rows.every((r) => r.status === "ok" && r.attemptCount === 1 && r.servedBy === "fast")).toBe(true);
      }
      const victimRows = byTag("victim");
      const victimPrompts = new Set(victimRows.map((r) => r.prompt));
      // Everything the victim answered was committed before the answer went out.
      for (const prompt of answeredBeforeKill) expect(victimPrompts.has(prompt)).toBe(true);
      // Nothing it never issued appears, and each issued call is there at most once.
      expect(victimRows.length).toBeLessThanOrEqual(victimIssued.length);
      expect(victimPrompts.size).toBe(victimRows.length);
      for (const prompt of victimPrompts) expect(victimIssued).toContain(prompt as string);
      // Rows it left `running` were reconciled by the late server: no run stays running forever.
      expect(victimRows.filter((r) => r.status === "running")).toEqual([]);
      expect(runs.length).toBe(SERVERS * CALLS + victimRows.length);
      // Attempts: one per finished run, none orphaned.
      const orphans = db.query<{ n: number }, []>("SELECT count(*) AS n FROM attempts WHERE run_id NOT IN (SELECT id FROM runs)").get()?.n;
      expect(orphans).toBe(0);
      process.stderr.write(
        `[reliability] shared store: ${runs.length} runs (${SERVERS}×${CALLS} + victim ${victimRows.length} rows, ${answeredBeforeKill.length} answered before the kill, ${victimIssued.length} issued), ${elapsed(started)} ms\n`,
      );
    } finally {
      store.value.close();
    }
  },
  scale(120_000, 600_000),
);
