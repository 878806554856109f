/** Plain-text views of stored history for `orchestrate history` (stdout is the terminal here). */
import type { ConsultationRecord, ConsultationSummary } from "../store/consultations.ts";
import type { ReviewSummary } from "../store/reviews.ts";
import type { RunRecord, RunSummary } from "../store/runs.ts";

const when = (ms: number) => new Date(ms).toISOString().replace("T", " ").slice(0, 19);

export function formatList(consultations: ConsultationSummary[], runs: RunSummary[], reviews: ReviewSummary[] = []): string {
  const lines = [`Consultations (${consultations.length}):`];
  for (const c of consultations) lines.push(`  ${c.id}  ${when(c.updatedAt)}  ${c.agentId} (${c.backend}${c.model ? ` · ${c.model}` : ""})  ${c.status}  ${c.turnCount} turn(s)`);
  lines.push(`Runs (${runs.length}):`);
  for (const r of runs) lines.push(`  ${r.id}  ${when(r.startedAt)}  ${r.tool}${r.tier ? `/${r.tier}` : ""}  ${r.status}${r.servedBy ? ` by ${r.servedBy}` : ""}${r.errorCode ? ` [${r.errorCode}]` : ""}`);
  lines.push(`Reviews (${reviews.length}):`);
  for (const r of reviews) lines.push(`  ${r.id}  ${when(r.updatedAt)}  ${r.mode}  ${r.status}  ${r.reviewers.join(", ")}  ${r.findings.critical} critical, ${r.findings.important} important, ${r.findings.minor} minor`);
  return `${lines.join("\n")}\n`;
}

export function formatConsultationRecord(c: ConsultationRecord): string {
  const lines = [`Consultation ${c.id} · ${c.agentId} (${c.backend}${c.model ? ` · ${c.model}` : ""}) · ${c.status} · native session ${c.nativeSessionId ?? "none"}`];
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
  for (const a of r.attempts) lines.push(`  ${a.n}. ${a.agentId} (${a.backend}${a.model ? ` · ${a.model}` : ""}) ${a.outcome}: ${a.reason}`);
  lines.push(`Prompt: ${r.prompt ?? `(not stored; ${r.promptLength} chars)`}`);
  if (r.errorCode) lines.push(`Error [${r.errorCode}]: ${r.errorMessage ?? ""}`);
  if (r.answer) lines.push(`Answer:\n${r.answer}`);
  return `${lines.join("\n")}\n`;
}
