/**
 * A corpus of ≥ 30 credential formats planted everywhere a secret can enter orchestrate — the
 * route prompt, a consult prompt and context, a delegate's answer, a delegate's error text — must
 * survive in no reply (text or structuredContent) and nowhere in the SQLite file: not in any text
 * column, and not in the raw bytes of the db and its WAL after a checkpoint (a stale page holding
 * an unredacted copy would count). test/safety/redact.test.ts proves the scrubber on strings; this
 * proves every path through a real server applies it.
 */
import { afterAll, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { type ClientSession, type ToolReply } from "../../fakes/lib/mcp-client.ts";
import { connectInProcess } from "../../fakes/lib/in-process.ts";
import { makeSandbox, type Sandbox } from "../../fakes/lib/sandbox.ts";
import { openStore } from "../../src/store/db.ts";
import { CREDENTIALS, planted, type Credential } from "./fixtures/credentials.ts";
import { b64, elapsed, pool, STEERED_FAKE } from "./helpers.ts";

const BATCH = 6;

let box: Sandbox | undefined;
let session: ClientSession | undefined;
afterAll(async () => {
  await session?.close().catch(() => undefined);
  box?.cleanup();
});

const CONFIG = `agents:
  leaky: { backend: claude, model: claude-opus-5-5, command: "${STEERED_FAKE}", env: { STEER_CLI: claude }, scores: { coding: 90 } }
tiers: { light: null, standard: null, heavy: [leaky] }
# The error calls rate-limit the agent over and over; every call must still reach it.
cooldowns: { authSec: 0, capacitySec: 0, transportSec: 0, notInstalledSec: 0 }
`;

/** Every string inside a value, recursively. */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value && typeof value === "object") for (const v of Object.values(value)) strings(v, out);
  return out;
}

/** The forms a secret can take once written: raw, and JSON-escaped (PEM newlines become \n). */
function forms(secret: string): string[] {
  return [...new Set([secret, JSON.stringify(secret).slice(1, -1)])];
}

function batches(): Credential[][] {
  const out: Credential[][] = [];
  for (let i = 0; i < CREDENTIALS.length; i += BATCH) out.push(CREDENTIALS.slice(i, i + BATCH));
  return out;
}

type Call = { label: string; reply: ToolReply };

async function plantBatch(s: ClientSession, k: number, batch: Credential[]): Promise<Call[]> {
  const text = batch.map(planted).join("\n\n");
  const cwd = box!.repo;
  const call = async (label: string, name: string, args: Record<string, unknown>): Promise<Call> => ({
    label: `${label} #${k}`,
    reply: (await s.client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 })) as ToolReply,
  });
  return Promise.all([
    call("route prompt + answer", "route", { prompt: `batch ${k}: please use\n${text}\n[[reply=${b64(`here they are:\n${text}`)}]]`, cwd, tier: "heavy" }),
    call("route error text", "route", { prompt: `batch ${k} fails [[scenario=rate-limit]] [[leak=${b64(text)}]]`, cwd, tier: "heavy" }),
    call("consult prompt + context + answer", "consult", {
      prompt: `batch ${k}: is this config safe?\n${text}\n[[reply=${b64(`you pasted:\n${text}`)}]]`,
      capability: "coding",
      context: `config dump:\n${text}`,
    }),
    call("consult error text", "consult", { prompt: `batch ${k} fails [[scenario=rate-limit]] [[leak=${b64(text)}]]`, capability: "coding", context: text }),
  ]);
}

test(`${CREDENTIALS.length} credential formats survive in no reply and nowhere in the store`, async () => {
  const started = performance.now();
  expect(CREDENTIALS.length).toBeGreaterThanOrEqual(30);
  box = makeSandbox({ ORCHESTRATE_HOST_RUNTIME: "gemini" });
  box.writeConfig(CONFIG);
  session = await connectInProcess(box.env);
  const s = session;
  const calls = (
    await pool(
      2,
      batches().map((batch, k) => () => plantBatch(s, k, batch)),
    )
  ).flat();

  // The secrets really travelled each path: the answers and errors came back, scrubbed.
  const byLabel = (prefix: string) => calls.filter((c) => c.label.startsWith(prefix));
  for (const c of [...byLabel("route prompt"), ...byLabel("consult prompt")])
    expect({ label: c.label, isError: c.reply.isError ?? false }).toEqual({ label: c.label, isError: false });
  for (const c of [...byLabel("route error"), ...byLabel("consult error")])
    expect({ label: c.label, isError: c.reply.isError }).toEqual({ label: c.label, isError: true });
  // Answers come back scrubbed. Error texts may not come back at all (a route trace says only
  // "unavailable", never the CLI's words), so they need no marker — only no leak.
  for (const c of [...byLabel("route prompt"), ...byLabel("consult prompt")])
    expect({ label: c.label, redacted: strings(c.reply).some((t) => t.includes("[REDACTED:")) }).toEqual({ label: c.label, redacted: true });

  const leaks: string[] = [];
  for (const c of calls) {
    const texts = strings(c.reply);
    for (const cred of CREDENTIALS) if (texts.some((t) => forms(cred.secret).some((f) => t.includes(f)))) leaks.push(`reply ${c.label}: ${cred.name}`);
  }

  await session.close();
  session = undefined;
  const store = openStore(box.dbPath);
  if (!store.ok) throw new Error(store.error.message);
  try {
    const db = store.value.db;
    db.run("PRAGMA wal_checkpoint(TRUNCATE)");
    const tables = db
      .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table'")
      .all()
      .map((t) => t.name);
    let rows = 0;
    for (const table of tables) {
      for (const row of db.query<Record<string, unknown>, []>(`SELECT * FROM "${table}"`).all()) {
        rows += 1;
        const texts = strings(row);
        for (const cred of CREDENTIALS) if (texts.some((t) => forms(cred.secret).some((f) => t.includes(f)))) leaks.push(`store ${table}: ${cred.name}`);
      }
    }
    expect(rows).toBeGreaterThan(0);
    // The prompts were stored (full content is on by default), scrubbed.
    expect(store.value.runs.listRuns({ limit: 100 }).some((r) => r.prompt?.includes("[REDACTED:"))).toBe(true);
  } finally {
    store.value.close();
  }
  for (const path of [box.dbPath, `${box.dbPath}-wal`, `${box.dbPath}-journal`]) {
    if (!existsSync(path)) continue;
    const bytes = readFileSync(path);
    for (const cred of CREDENTIALS)
      if (forms(cred.secret).some((f) => bytes.includes(Buffer.from(f, "utf8")))) leaks.push(`raw bytes of ${path.slice(box.root.length)}: ${cred.name}`);
  }
  // Regression guard: CamelCase values with digits (MySecretPass1, AWS secrets without + or /) once
  // passed as "type names" and leaked (fixed in src/safety/redact.ts).
  expect(leaks).toEqual([]);
  process.stderr.write(`[reliability] credential leak: ${CREDENTIALS.length} formats × ${calls.length} calls, ${elapsed(started)} ms\n`);
}, 120_000);
