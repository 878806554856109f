/**
 * `orchestrate import --history`: Orchestrator MCP's consultations (store/seed-history.ts) become
 * orchestrate's, under the same ids, so a host that kept a consultation_id can continue it here:
 * the native session id is carried over and consult's pin rules (same agent id, runtime and model
 * in the config) decide whether it resumes. Idempotent: a consultation already stored is skipped,
 * never merged or rewritten. The foreign file is only read.
 */
import type { Usage } from "../../backends/contract.ts";
import { ok, type Result } from "../../result.ts";
import type { Store } from "../../store/db.ts";
import { readSeedHistory, type SeedConsultation, type SeedTurn } from "../../store/seed-history.ts";

export interface HistoryImport {
  imported: number;
  skipped: number;
  turns: number;
  /** Imported with a native session id: these can be continued with their consultation_id. */
  resumable: number;
}

export function importSeedHistory(store: Store, path: string): Result<HistoryImport> {
  const read = readSeedHistory(path);
  if (!read.ok) return read;
  const out: HistoryImport = { imported: 0, skipped: 0, turns: 0, resumable: 0 };
  for (const c of read.value) {
    if (store.consultations.get(c.id)) {
      out.skipped += 1;
      continue;
    }
    importOne(store, c);
    out.imported += 1;
    out.turns += c.turns.length;
    if (resumable(c)) out.resumable += 1;
  }
  return ok(out);
}

/** Seed 001 refuses a public resume of a workflow's consultation; a session-less one has nothing to continue. */
function resumable(c: SeedConsultation): boolean {
  return c.nativeSessionId !== null && c.workflowId === null;
}

function importOne(store: Store, c: SeedConsultation): void {
  const created = timeOf(c.createdAt);
  store.consultations.create({
    id: c.id,
    agentId: c.agentId,
    // The seed's experimental `antigravity` runtime is orchestrate's agy (config/legacy.ts).
    backend: c.runtime === "antigravity" ? "agy" : c.runtime,
    model: c.model,
    hostRuntime: c.originRuntime,
    ...(resumable(c) && c.nativeSessionId ? { nativeSessionId: c.nativeSessionId } : {}),
    status: resumable(c) ? "open" : c.status === "failed" ? "failed" : "closed",
    now: created,
  });
  for (const t of c.turns) store.consultations.addTurn(c.id, turnOf(t, created));
}

function turnOf(t: SeedTurn, fallback: number): Parameters<Store["consultations"]["addTurn"]>[1] {
  const answer = parsed(t.response);
  const usage: Usage = { inputTokens: t.inputTokens, outputTokens: t.outputTokens, ...(t.costUsd !== null ? { costUsd: t.costUsd } : {}) };
  return {
    prompt: t.prompt ?? "",
    ...(t.context !== null ? { context: t.context } : {}),
    ...(answer !== undefined ? { answer } : {}),
    ...(t.errorCode !== null ? { errorCode: t.errorCode, errorMessage: `Imported from Orchestrator MCP (${t.errorCode}).` } : {}),
    // The seed verified the model at the time; orchestrate did not see that run.
    modelVerified: "unverified",
    usage,
    latencyMs: t.latencyMs,
    now: timeOf(t.createdAt, fallback),
  };
}

function parsed(text: string | null): unknown {
  if (text === null) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function timeOf(iso: string, fallback = Date.now()): number {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? fallback : t;
}
