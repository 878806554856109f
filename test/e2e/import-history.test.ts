/**
 * `orchestrate import --history` (issue 23 §3): an Orchestrator MCP consultations database, built
 * here from its own schema (consult/store.py's first migration plus its workflow column), is read
 * without being changed into orchestrate's store; a re-run imports nothing twice; and an imported
 * consultation whose codex session still exists is continued over MCP with its old id.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type ClientSession, type ToolReply } from "../../fakes/lib/mcp-client.ts";
import { connectInProcess } from "../../fakes/lib/in-process.ts";
import { BUN_DIR, makeSandbox, REPO_ROOT, type Sandbox } from "../../fakes/lib/sandbox.ts";

const SEED_SCHEMA = `
CREATE TABLE profiles (id TEXT PRIMARY KEY, created_at TEXT NOT NULL);
CREATE TABLE consultations (
  id TEXT PRIMARY KEY, profile_id TEXT NOT NULL REFERENCES profiles(id), origin_runtime TEXT NOT NULL,
  target_agent_id TEXT NOT NULL, target_runtime TEXT NOT NULL, target_model TEXT NOT NULL, capability TEXT NOT NULL,
  native_session_id TEXT, conversation_label TEXT, protocol_version TEXT NOT NULL, config_hash TEXT NOT NULL,
  status TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL, workflow_id TEXT, step_id TEXT);
CREATE TABLE consultation_turns (
  id INTEGER PRIMARY KEY AUTOINCREMENT, consultation_id TEXT NOT NULL REFERENCES consultations(id), sequence_number INTEGER NOT NULL,
  source_mode TEXT NOT NULL, user_prompt TEXT, context TEXT, compiled_prompt TEXT, raw_output TEXT, validated_response_json TEXT,
  input_tokens INTEGER NOT NULL DEFAULT 0, output_tokens INTEGER NOT NULL DEFAULT 0, cost_usd REAL, latency_ms INTEGER NOT NULL DEFAULT 0,
  error_code TEXT, created_at TEXT NOT NULL, total_tokens INTEGER NOT NULL DEFAULT 0, usage_semantics INTEGER NOT NULL DEFAULT 0,
  UNIQUE (consultation_id, sequence_number));
`;

const SESSION = "01a22783-2e95-7c91-909e-321f67145bcd";
const LIVE = "6f1c2b8e-0000-4000-8000-000000000001";
const GONE = "6f1c2b8e-0000-4000-8000-000000000002";
const CONFIG = "agents:\n  codex-sol: { backend: codex, model: gpt-5.5, scores: { coding: 95 } }\n";

let box: Sandbox;
let seedDb: string;
beforeAll(() => {
  box = makeSandbox({ ORCHESTRATE_HOST_RUNTIME: "claude" });
  box.writeConfig(CONFIG);
  seedDb = join(box.root, "consultations.sqlite3");
  const db = new Database(seedDb, { create: true });
  db.exec(SEED_SCHEMA);
  db.run("INSERT INTO profiles VALUES ('default', '2026-01-01T00:00:00+00:00')");
  const add = db.query(
    "INSERT INTO consultations VALUES (?, 'default', 'claude', 'codex-sol', 'codex', 'gpt-5.5', 'coding', ?, NULL, 'consult-v1', 'h', ?, ?, ?, NULL, NULL)",
  );
  add.run(LIVE, SESSION, "active", "2026-01-02T10:00:00+00:00", "2026-01-02T10:01:00+00:00");
  add.run(GONE, null, "failed", "2026-01-03T10:00:00+00:00", "2026-01-03T10:00:00+00:00");
  const turn = db.query(
    "INSERT INTO consultation_turns (consultation_id, sequence_number, source_mode, user_prompt, validated_response_json, input_tokens, output_tokens, latency_ms, error_code, created_at) VALUES (?, ?, 'model', ?, ?, 900, 120, 8412, ?, ?)",
  );
  turn.run(
    LIVE,
    1,
    "Is the index hot?",
    JSON.stringify({ answer: "Probably.", assumptions: [], uncertainties: [], follow_up_questions: [], sources: [] }),
    null,
    "2026-01-02T10:00:30+00:00",
  );
  turn.run(GONE, 1, "Anything?", null, "agent_unavailable", "2026-01-03T10:00:10+00:00");
  db.close();
  // The codex session still exists: its rollout is where codex resumes it from.
  const day = join(box.home, ".codex", "sessions", "2026", "01", "02");
  mkdirSync(day, { recursive: true });
  writeFileSync(
    join(day, `rollout-2026-01-02T10-00-00-${SESSION}.jsonl`),
    `${JSON.stringify({ timestamp: "2026-01-02T10:00:00Z", type: "turn_context", payload: { model: "gpt-5.5" } })}\n`,
  );
});
afterAll(() => box.cleanup());

const sha = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");
const importHistory = () => {
  const run = Bun.spawnSync([join(BUN_DIR, "bun"), join(REPO_ROOT, "src", "main.ts"), "import", "--history", seedDb], { env: box.env, cwd: box.repo });
  return { code: run.exitCode, err: run.stderr.toString() };
};

describe("import --history", () => {
  let session: ClientSession | undefined;
  afterAll(async () => {
    await session?.close();
  });

  test("reads the seed's database without changing it, and a re-run imports nothing twice", () => {
    const before = sha(seedDb);
    const first = importHistory();
    expect(first.err).toContain("imported 2 consultation(s), 2 turn(s)");
    expect(first.err).toContain("1 can be continued");
    expect(first.code).toBe(0);
    const again = importHistory();
    expect(again.err).toContain("imported 0 consultation(s)");
    expect(again.err).toContain("2 already here were skipped");
    expect(sha(seedDb)).toBe(before);
  }, 60_000);

  test("an imported consultation shows its turns, and one whose session exists continues it under its old id", async () => {
    session = await connectInProcess(box.env);
    const shown = ((await session.client.callTool({ name: "get_consultation", arguments: { id: LIVE } })) as ToolReply).structuredContent ?? {};
    expect(shown).toMatchObject({ ok: true, agent: "codex-sol", backend: "codex", native_session_id: SESSION, status: "open" });
    expect((shown.turns as { prompt: string; content: { answer: string } }[])[0]).toMatchObject({
      prompt: "Is the index hot?",
      content: { answer: "Probably." },
    });
    const gone = ((await session.client.callTool({ name: "get_consultation", arguments: { id: GONE } })) as ToolReply).structuredContent ?? {};
    expect(gone).toMatchObject({ ok: true, status: "failed", native_session_id: null });
    const next =
      (
        (await session.client.callTool({
          name: "consult",
          arguments: { capability: "coding", prompt: "And how large is the table?", consultation_id: LIVE },
        })) as ToolReply
      ).structuredContent ?? {};
    expect(next).toMatchObject({ ok: true, consultation_id: LIVE, agent: "codex-sol" });
    const argv = box.recordings("codex").at(-1)?.argv ?? [];
    expect(argv.slice(argv.indexOf("resume"), argv.indexOf("resume") + 2)).toEqual(["resume", SESSION]);
  }, 60_000);
});
