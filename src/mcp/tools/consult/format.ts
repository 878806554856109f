/**
 * The consult tools' readable text blocks. A consult is read in the shape its output schema
 * declares, so a result read back from the job store formats like a fresh one.
 */
import type { AgentListing, ConsultationView } from "../../../services/consult/views.ts";
import { usageLine } from "../core/format.ts";
import type { consultOutput } from "./schema.ts";

export type ConsultOutput = typeof consultOutput.infer;

export function formatConsult(e: ConsultOutput): string {
  const lines: string[] = [];
  if (e.agent)
    lines.push(
      `Consulted ${e.agent} (${e.backend ?? "?"}${e.model ? ` · ${e.model}` : ""}) · model ${e.model_verification ?? "unverified"} · ${((e.latency_ms ?? 0) / 1000).toFixed(1)} s`,
    );
  if (e.consultation_id) lines.push(`Consultation: ${e.consultation_id} (pass as consultation_id to follow up)`);
  if (e.usage && Object.keys(e.usage).length > 0) lines.push(`Usage: ${usageLine(e.usage)}`);
  if (e.rerun) lines.push(`Run twice: ${e.rerun}`);
  if (e.store_notice) lines.push(`Notice: ${e.store_notice}`);
  const c = e.content;
  if (!c) return lines.join("\n");
  lines.push("", c.answer);
  const list = (title: string, items: string[]) => items.length > 0 && lines.push("", `${title}:`, ...items.map((x) => `- ${x}`));
  list("Assumptions", c.assumptions);
  list("Uncertainties", c.uncertainties);
  list("Follow-up questions", c.follow_up_questions);
  list(
    "Sources",
    c.sources.map((s) => (s.locator === s.title || s.locator === "internal" ? s.title : `${s.title} (${s.locator})`)),
  );
  return lines.join("\n");
}

export function formatAgents(l: AgentListing): string {
  const lines = [l.host ? `Host: ${l.host.runtime}${l.host.model ? ` · ${l.host.model}` : ""}` : `Host: unknown (${l.host_problem ?? "?"})`];
  if (l.agents.length === 0) lines.push("No consult agents are configured.");
  for (const a of l.agents) {
    const scores =
      Object.entries(a.scores)
        .map(([k, v]) => `${k} ${v}`)
        .join(", ") || "no scores";
    const state = a.eligible ? "eligible" : `excluded: ${a.excluded_reason ?? "?"}`;
    lines.push(
      `- ${a.id}: ${a.backend}${a.model ? ` · ${a.model}` : ""} · ${scores} · priority ${a.priority}${a.installed ? "" : " · not installed"}${a.readiness === "not_ready" ? " · not signed in" : ""}${a.quota ? ` · quota ${a.quota}` : ""} · ${state}`,
    );
  }
  return lines.join("\n");
}

export function formatConsultation(v: ConsultationView): string {
  const lines = [`Consultation ${v.id} · ${v.agent} (${v.backend}${v.model ? ` · ${v.model}` : ""}) · ${v.status} · ${v.turns.length} turn(s)`];
  for (const t of v.turns) {
    const answer = (t.content as { answer?: string } | null)?.answer;
    lines.push(`  ${t.n}. ${t.error ? `error ${t.error.code}: ${t.error.message}` : (answer ?? "(content not stored)")} · model ${t.model_verification}`);
  }
  return lines.join("\n");
}
