/** Plain-text views of stored history for `orchestrate history` (stdout is the terminal here). */
import type { AskRecord } from "../store/asks.ts";
import type { AskListRow } from "../store/browse/asks.ts";
import type { ConsultationRecord, ConsultationSummary } from "../store/consultations.ts";
import type { ReviewSummary } from "../store/reviews.ts";
import type { AttemptRecord, RunRecord, RunSummary } from "../store/runs.ts";
import { wordsLine } from "../services/shared/failure-words.ts";
import { wordsOf } from "./route-report.ts";
import { personMessage } from "../services/route/outcome.ts";

const when = (ms: number) => new Date(ms).toISOString().replace("T", " ").slice(0, 19);

export function formatList(consultations: ConsultationSummary[], runs: RunSummary[], reviews: ReviewSummary[] = [], asks: AskListRow[] = []): string {
  const lines = [`Consultations (${consultations.length}):`];
  for (const c of consultations)
    lines.push(`  ${c.id}  ${when(c.updatedAt)}  ${c.agentId} (${c.backend}${c.model ? ` · ${c.model}` : ""})  ${c.status}  ${c.turnCount} turn(s)`);
  lines.push(`Runs (${runs.length}):`);
  for (const r of runs)
    lines.push(
      `  ${r.id}  ${when(r.startedAt)}  ${r.tool}${r.tier ? `/${r.tier}` : ""}  ${r.status}${r.servedBy ? ` by ${r.servedBy}` : ""}${r.errorCode ? ` [${r.errorCode}]` : ""}`,
    );
  lines.push(`Reviews (${reviews.length}):`);
  for (const r of reviews)
    lines.push(
      `  ${r.id}  ${when(r.updatedAt)}  ${r.mode}  ${r.status}  ${r.reviewers.join(", ")}  ${r.findings.critical} critical, ${r.findings.important} important, ${r.findings.minor} minor`,
    );
  lines.push(`Asks (${asks.length}):`);
  for (const a of asks)
    lines.push(
      `  ${a.id}  ${when(a.createdAt)}  ${a.capability}${a.model ? ` → ${a.model}` : ""}  ${a.status}${a.errorCode ? ` [${a.errorCode}]` : ""}  ${a.latencyMs} ms${tokensOf(a)}`,
    );
  return `${lines.join("\n")}\n`;
}

export function formatConsultationRecord(c: ConsultationRecord): string {
  const lines = [
    `Consultation ${c.id} · ${c.agentId} (${c.backend}${c.model ? ` · ${c.model}` : ""}) · ${c.status} · native session ${c.nativeSessionId ?? "none"}`,
  ];
  for (const t of c.turns) {
    lines.push(`\n— turn ${t.n} · ${when(t.createdAt)} · model ${t.modelReported ?? "?"} (${t.modelVerified})`);
    lines.push(`Q: ${t.prompt ?? `(not stored; ${t.promptLength} chars)`}`);
    if (t.context) lines.push(`Context: ${t.context}`);
    if (t.errorCode) lines.push(`Error [${t.errorCode}]: ${t.errorMessage ?? ""}`);
    const answer = (t.answer as { answer?: unknown } | undefined)?.answer;
    if (typeof answer === "string") lines.push(`A: ${answer}`);
  }
  return `${lines.join("\n")}\n`;
}

export function formatRunRecord(r: RunRecord): string {
  const lines = [`Run ${r.id} · ${r.tool}${r.tier ? `/${r.tier}` : ""} · ${r.status} · ${r.cwd} · started ${when(r.startedAt)}`];
  for (const a of r.attempts) lines.push(attemptLine(a));
  lines.push(`Prompt: ${r.prompt ?? `(not stored; ${r.promptLength} chars)`}`);
  const failed = r.attempts.filter((a) => a.outcome !== "skipped" && a.outcome !== "ok").at(-1);
  if (r.errorCode) lines.push(`Error [${r.errorCode}]: ${failed ? personMessage(r.errorMessage ?? "", wordsOf(failed).words) : (r.errorMessage ?? "")}`);
  if (r.answer) lines.push(`Answer:\n${r.answer}`);
  return `${lines.join("\n")}\n`;
}

/** A failed attempt in words with its fix, a skipped entry with its rule (src/cli/route-report.ts). */
function attemptLine(a: AttemptRecord): string {
  const who = `${a.agentId} (${a.backend}${a.model ? ` · ${a.model}` : ""})`;
  if (a.outcome === "skipped") return `  -  ${who} skipped: ${a.reason}`;
  if (a.outcome === "ok") return `  ${a.n}. ${who} ok: ${a.reason}${usageOf(a.usage)}`;
  return `  ${a.n}. ${who} failed: ${wordsLine(wordsOf(a))}${usageOf(a.usage)}`;
}

/** Tokens and cost as the attempt used them; an estimated cost says so (docs/cost.md). */
function usageOf(u: AttemptRecord["usage"]): string {
  if (!u || (u.inputTokens === undefined && u.outputTokens === undefined && u.costUsd === undefined)) return "";
  const cost = u.costUsd === undefined ? "" : ` · $${u.costUsd.toFixed(4)}${u.costEstimated ? " (estimated)" : ""}`;
  return ` · ${u.inputTokens ?? 0}/${u.outputTokens ?? 0} tokens${cost}`;
}

function tokensOf(a: { inputTokens: number | null; outputTokens: number | null }): string {
  return a.inputTokens === null && a.outputTokens === null ? "" : `  ${a.inputTokens ?? 0}/${a.outputTokens ?? 0} tokens`;
}

export function formatAskRecord(a: AskRecord): string {
  const served = a.model ? ` → ${a.model}${a.host ? ` @ ${a.host}` : ""}${a.fallbackUsed ? " (fallback)" : ""}` : "";
  const lines = [
    `Ask ${a.id} · ${a.capability}${served} · ${a.status} · finish ${a.finishReason ?? "none"} · ${a.latencyMs} ms${tokensOf(a)} · ${when(a.createdAt)}`,
  ];
  for (const l of a.legs)
    lines.push(
      `  ${l.n}. ${l.capability}: ${l.model}${l.host ? ` @ ${l.host}` : ""} ${l.outcome}${l.errorCode ? ` [${l.errorCode}]` : ""}${l.statusCode !== null ? ` HTTP ${l.statusCode}` : ""} · ${l.latencyMs} ms${l.retry ? ` · retry ${l.retry}` : ""}`,
    );
  if (a.system) lines.push(`System: ${a.system}`);
  lines.push(`Prompt: ${a.prompt ?? `(not stored; ${a.promptLength} chars)`}`);
  if (a.context) lines.push(`Context: ${a.context}`);
  if (a.errorCode) lines.push(`Error [${a.errorCode}]: ${a.errorMessage ?? ""}`);
  if (a.answer) lines.push(`Answer:\n${a.answer}`);
  return `${lines.join("\n")}\n`;
}
