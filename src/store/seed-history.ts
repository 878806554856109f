/**
 * Reads Orchestrator MCP's consultations database (seed 001, its consult/store.py schema: tables
 * `consultations` and `consultation_turns`) for `orchestrate import --history`. Opened read-only
 * and only read: the file stays theirs, byte for byte. SQL lives in store/, so this is the one
 * place that knows the foreign columns; the service maps the rows into orchestrate's store.
 */
import { Database } from "bun:sqlite";
import { fail, ok, type Result } from "../result.ts";

export interface SeedConsultation {
  id: string;
  originRuntime: string;
  agentId: string;
  runtime: string;
  model: string;
  nativeSessionId: string | null;
  status: string;
  /** Present when a workflow step made it (seed 001 refuses to resume those from the public path). */
  workflowId: string | null;
  createdAt: string;
  turns: SeedTurn[];
}

export interface SeedTurn {
  sequence: number;
  sourceMode: string;
  prompt: string | null;
  context: string | null;
  /** validated_response_json: the envelope content the seed accepted, as JSON text. */
  response: string | null;
  inputTokens: number;
  outputTokens: number;
  costUsd: number | null;
  latencyMs: number;
  errorCode: string | null;
  createdAt: string;
}

interface ConsultationRow {
  id: string;
  origin_runtime: string;
  target_agent_id: string;
  target_runtime: string;
  target_model: string;
  native_session_id: string | null;
  status: string;
  workflow_id?: string | null;
  created_at: string;
}

interface TurnRow {
  sequence_number: number;
  source_mode: string;
  user_prompt: string | null;
  context: string | null;
  validated_response_json: string | null;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number | null;
  latency_ms: number;
  error_code: string | null;
  created_at: string;
}

export function readSeedHistory(path: string): Result<SeedConsultation[]> {
  let db: Database;
  try {
    db = new Database(path, { readonly: true });
  } catch (error) {
    return fail(
      "invalid_arguments",
      `Cannot open ${path} as a SQLite database: ${String(error)}.`,
      "Pass Orchestrator MCP's consultations database (consult.database_path, by default ~/.orchestrator-mcp/consultations.sqlite3).",
    );
  }
  try {
    const tables = new Set(
      db
        .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table'")
        .all()
        .map((r) => r.name),
    );
    if (!tables.has("consultations") || !tables.has("consultation_turns")) {
      return fail(
        "invalid_arguments",
        `${path} is not an Orchestrator MCP consultations database (no consultations / consultation_turns tables).`,
        "Pass the file named by consult.database_path in its config.yaml.",
      );
    }
    const hasWorkflow = db
      .query<{ name: string }, []>("SELECT name FROM pragma_table_info('consultations')")
      .all()
      .some((c) => c.name === "workflow_id");
    const rows = db
      .query<ConsultationRow, []>(
        `SELECT id, origin_runtime, target_agent_id, target_runtime, target_model, native_session_id, status, created_at${hasWorkflow ? ", workflow_id" : ""} FROM consultations ORDER BY created_at, id`,
      )
      .all();
    const turnsOf = db.query<TurnRow, { id: string }>(
      "SELECT sequence_number, source_mode, user_prompt, context, validated_response_json, input_tokens, output_tokens, cost_usd, latency_ms, error_code, created_at FROM consultation_turns WHERE consultation_id = $id ORDER BY sequence_number",
    );
    return ok(rows.map((row) => toConsultation(row, turnsOf.all({ id: row.id }))));
  } catch (error) {
    return fail("invalid_arguments", `Cannot read ${path}: ${String(error)}.`, "Pass Orchestrator MCP's consultations database as its server left it.");
  } finally {
    db.close();
  }
}

function toConsultation(row: ConsultationRow, turns: TurnRow[]): SeedConsultation {
  return {
    id: row.id,
    originRuntime: row.origin_runtime,
    agentId: row.target_agent_id,
    runtime: row.target_runtime,
    model: row.target_model,
    nativeSessionId: row.native_session_id,
    status: row.status,
    workflowId: row.workflow_id ?? null,
    createdAt: row.created_at,
    turns: turns.map((t) => ({
      sequence: t.sequence_number,
      sourceMode: t.source_mode,
      prompt: t.user_prompt,
      context: t.context,
      response: t.validated_response_json,
      inputTokens: t.input_tokens,
      outputTokens: t.output_tokens,
      costUsd: t.cost_usd,
      latencyMs: t.latency_ms,
      errorCode: t.error_code,
      createdAt: t.created_at,
    })),
  };
}
