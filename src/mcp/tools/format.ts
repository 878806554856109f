/** Readable text blocks that accompany structuredContent. */
import type { RouteOutcome } from "../../services/route.ts";
import type { DryRun, TierListing } from "../../services/tiers.ts";
import type { ConsultEnvelope } from "../../services/consult.ts";
import type { AgentListing, ConsultationView } from "../../services/consult-views.ts";

export function formatRoute(outcome: RouteOutcome): string {
  const lines: string[] = [];
  if (outcome.servedBy) {
    const s = outcome.servedBy;
    lines.push(`Served by ${s.tier}:${s.agent} (${s.backend}${s.model ? ` · ${s.model}` : ""})`);
  }
  if (outcome.attempts.length > 0) lines.push("Trace:", ...outcome.attempts.map(traceLine));
  if (outcome.crossProviderNotice) lines.push(`Notice: ${outcome.crossProviderNotice}`);
  if (outcome.usage && Object.keys(outcome.usage).length > 0) lines.push(`Usage: ${usageLine(outcome.usage)}`);
  if (outcome.sessionId) lines.push(`Session: ${outcome.sessionId}`);
  if (outcome.text) lines.push("", outcome.ok ? outcome.text : `Partial output:\n${outcome.text}`);
  return lines.join("\n");
}

function traceLine(a: RouteOutcome["attempts"][number]): string {
  const secs = (a.durationMs / 1000).toFixed(1);
  const tree = a.treeChanged ? " · tree changed" : "";
  return `  ${a.n}. ${a.tier}:${a.agent} (${a.backend}) — ${a.outcome} in ${secs} s${tree}${a.fellBack ? " → fell back" : ""}${a.outcome === "ok" || a.reason === a.outcome ? "" : ` · ${a.reason}`}`;
}

function usageLine(u: NonNullable<RouteOutcome["usage"]>): string {
  const parts: string[] = [];
  if (u.inputTokens !== undefined) parts.push(`${u.inputTokens} in`);
  if (u.outputTokens !== undefined) parts.push(`${u.outputTokens} out`);
  if (u.costUsd !== undefined) parts.push(`$${u.costUsd.toFixed(4)}`);
  if (u.turns !== undefined) parts.push(`${u.turns} turns`);
  return parts.join(", ");
}

export function formatTiers(l: TierListing): string {
  const tiers = Object.entries(l.tiers).map(([t, on]) => `${t}: ${on ? "configured" : "unconfigured"}`);
  return [
    `Tiers — ${tiers.join(", ")}`,
    `Capabilities: ${l.capabilities.length ? l.capabilities.join(", ") : "none"}`,
    `Cooling: ${l.cooling.length ? l.cooling.join(", ") : "none"}`,
    `Installed CLIs: ${l.installed.length ? l.installed.join(", ") : "none found"}`,
  ].join("\n");
}

export function formatDryRun(d: DryRun): string {
  const lines = [`Budget: ${d.budget.totalSec} s total, ${d.budget.reserveSec} s reserved per later attempt`, "Recipients (in order):"];
  for (const r of d.recipients) lines.push(`  ${r.n}. ${r.tier}:${r.agent} → ${r.backend}${r.model ? `/${r.model}` : ""} [${r.provider}]${r.advisory ? " (advisory: hint only)" : ""}${r.crossesProvider ? " (crosses provider)" : ""} · up to ${r.budgetSec} s`);
  lines.push("Decisions:");
  for (const x of d.decisions) lines.push(`  ${x.decision === "include" ? "+" : "-"} ${x.tier}:${x.agent} — ${x.reason}`);
  if (d.crossings.length) lines.push(`Crossings: ${d.crossings.join("; ")}`);
  lines.push("Nothing was sent.");
  return lines.join("\n");
}

export function formatConsult(e: ConsultEnvelope): string {
  const lines: string[] = [];
  if (e.agent) lines.push(`Consulted ${e.agent} (${e.backend ?? "?"}${e.model ? ` · ${e.model}` : ""}) · model ${e.model_verification ?? "unverified"} · ${(e.latency_ms / 1000).toFixed(1)} s`);
  if (e.consultation_id) lines.push(`Consultation: ${e.consultation_id} (pass as consultation_id to follow up)`);
  if (Object.keys(e.usage).length > 0) lines.push(`Usage: ${usageLine(e.usage)}`);
  const c = e.content;
  if (!c) return lines.join("\n");
  lines.push("", c.answer);
  const list = (title: string, items: string[]) => items.length > 0 && lines.push("", `${title}:`, ...items.map((x) => `- ${x}`));
  list("Assumptions", c.assumptions);
  list("Uncertainties", c.uncertainties);
  list("Follow-up questions", c.follow_up_questions);
  list("Sources", c.sources);
  return lines.join("\n");
}

export function formatAgents(l: AgentListing): string {
  const lines = [l.host ? `Host: ${l.host.runtime}${l.host.model ? ` · ${l.host.model}` : ""}` : `Host: unknown (${l.host_problem ?? "?"})`];
  if (l.agents.length === 0) lines.push("No consult agents are configured.");
  for (const a of l.agents) {
    const scores = Object.entries(a.scores).map(([k, v]) => `${k} ${v}`).join(", ") || "no scores";
    const state = a.eligible ? "eligible" : `excluded: ${a.excluded_reason ?? "?"}`;
    lines.push(`- ${a.id}: ${a.backend}${a.model ? ` · ${a.model}` : ""} · ${scores} · priority ${a.priority}${a.installed ? "" : " · not installed"}${a.readiness === "not_ready" ? " · not signed in" : ""} · ${state}`);
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
