/**
 * The core tools' readable text blocks, beside their structuredContent. A route is read in the shape
 * its output schema declares, so a result read back from the job store formats like a fresh one.
 */
import type { DryRun, TierListing } from "../../../services/route/tiers.ts";
import type { routeOutput } from "./schema.ts";
import { estimateLine } from "../../../services/shared/price.ts";

export type RouteOutput = typeof routeOutput.infer;

/** `trace` replaces the public trace lines (the shell passes its own, in words: src/cli/route-report.ts). */
export function formatRoute(outcome: RouteOutput, trace?: string[]): string {
  const lines: string[] = [];
  if (outcome.servedBy) {
    const s = outcome.servedBy;
    lines.push(`Served by ${s.tier}:${s.agent} (${s.backend}${s.model ? ` · ${s.model}` : ""})${s.modelVerification ? ` · model ${s.modelVerification}` : ""}`);
  }
  const traced = trace ?? outcome.attempts.map(traceLine);
  if (traced.length > 0) lines.push("Trace:", ...traced);
  if (outcome.quotaNotice) lines.push(`Notice: ${outcome.quotaNotice}`);
  if (outcome.crossProviderNotice) lines.push(`Notice: ${outcome.crossProviderNotice}`);
  if (outcome.modelNotice) lines.push(`Notice: ${outcome.modelNotice}`);
  if (outcome.refusalNotice) lines.push(`Notice: ${outcome.refusalNotice}`);
  if (outcome.storeNotice) lines.push(`Notice: ${outcome.storeNotice}`);
  if (outcome.costNotice) lines.push(`Notice: ${outcome.costNotice}`);
  if (outcome.usage && Object.keys(outcome.usage).length > 0) lines.push(`Usage: ${usageLine(outcome.usage)}`);
  if (outcome.sessionId) lines.push(`Session: ${outcome.sessionId}`);
  if (outcome.text) lines.push("", outcome.ok ? outcome.text : `Partial output:\n${outcome.text}`);
  return lines.join("\n");
}

function traceLine(a: RouteOutput["attempts"][number]): string {
  const secs = (a.durationMs / 1000).toFixed(1);
  const tree = a.treeChanged ? " · tree changed" : "";
  const refused = a.refusals?.length ? ` · ${a.refusals.length} tool call${a.refusals.length === 1 ? "" : "s"} refused` : "";
  return `  ${a.n}. ${a.tier}:${a.agent} (${a.backend}) — ${a.outcome} in ${secs} s${tree}${refused}${a.fellBack ? " → fell back" : ""}${a.outcome === "ok" || a.reason === a.outcome ? "" : ` · ${a.reason}`}`;
}

export function usageLine(u: NonNullable<RouteOutput["usage"]>): string {
  const parts: string[] = [];
  if (u.inputTokens !== undefined) parts.push(`${u.inputTokens} in`);
  if (u.outputTokens !== undefined) parts.push(`${u.outputTokens} out`);
  if (u.costUsd !== undefined) parts.push(`$${u.costUsd.toFixed(4)}${u.costEstimated ? " (estimated)" : ""}`);
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
    `Quota: ${quotaText(l.quota)}`,
  ].join("\n");
}

function quotaText(quota: TierListing["quota"]): string {
  const tiers = Object.entries(quota);
  return tiers.length ? tiers.map(([t, lines]) => `${t} — ${(lines ?? []).join("; ")}`).join(" · ") : "none reported";
}

export function formatDryRun(d: DryRun): string {
  const lines = [`Budget: ${d.budget.totalSec} s total, ${d.budget.reserveSec} s reserved per later attempt`, "Recipients (in order):"];
  for (const r of d.recipients)
    lines.push(
      `  ${r.n}. ${r.tier}:${r.agent} → ${r.backend}${r.model ? `/${r.model}` : ""} [${r.provider}]${r.advisory ? " (advisory: hint only)" : ""}${r.crossesProvider ? " (crosses provider)" : ""} · up to ${r.budgetSec} s${r.cost ? ` · ${estimateLine(r.cost)}` : ""}`,
    );
  lines.push("Decisions:");
  for (const x of d.decisions) lines.push(`  ${x.decision === "include" ? "+" : "-"} ${x.tier}:${x.agent} — ${x.reason}`);
  if (d.crossings.length) lines.push(`Crossings: ${d.crossings.join("; ")}`);
  lines.push("Nothing was sent.");
  return lines.join("\n");
}
