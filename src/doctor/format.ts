import { formatAcpAgent } from "./acp.ts";
import type { AskCapabilityReport } from "./ask.ts";
import { problemCounts, type CliReport, type DoctorReport } from "./checks.ts";

export interface FormatOptions {
  /** false when the CLI lines were already printed as they answered. */
  clis?: boolean;
}

export function formatDoctor(r: DoctorReport, opts: FormatOptions = {}, now = Date.now()): string {
  const lines: string[] = ["Tiers:"];
  for (const t of r.tiers) lines.push(`  ${t.tier.padEnd(8)} ${t.agents ? t.agents.join(" → ") : "(unconfigured)"}`);
  if (r.capabilities.length) lines.push("Capability slots:", ...r.capabilities.map((c) => `  ${c.name.padEnd(8)} ${c.agents.join(", ")}`));
  lines.push("Agents:");
  for (const a of r.agents)
    lines.push(
      `  ${a.id}: ${a.backend}${a.model ? ` · ${a.model}` : ""} [${a.provider}]${a.advisory ? " advisory" : ""}${a.enabled ? "" : " disabled"}${a.cooldown ? ` · ${coolingText(a.cooldown, now)}` : ""}${a.quota ? ` · quota ${a.quota}` : ""}`,
    );
  if (opts.clis !== false) lines.push("CLIs:", ...r.clis.map(formatCliLine));
  if (r.acp.length) lines.push("ACP agents:", ...r.acp.map(formatAcpAgent));
  if (r.ask.length) lines.push("Ask capabilities:", ...r.ask.flatMap(formatAskCapability));
  lines.push(`Store: ${r.store.path} — ${r.store.status === "ok" ? "ok" : r.store.status === "absent" ? r.store.message : `✗ ${r.store.message}`}`);
  if (r.store.notice) lines.push(`  note: ${r.store.notice}`);
  if (r.problems.length) {
    lines.push("Problems:");
    for (const p of r.problems) lines.push(`  ${p.blocks ? "✗" : "⚠"} ${p.problem}`, `    → ${p.hint}`);
  } else {
    lines.push("No problems found.");
  }
  return `${lines.join("\n")}\n`;
}

/** The verdict, last: a valid file is not a working setup when a problem blocks an agent. */
export function formatVerdict(path: string, r: DoctorReport): string {
  const { all, blocking } = problemCounts(r);
  if (all === 0) return `✓ ${path}: valid, no problems\n`;
  const counted = `${all} problem${all === 1 ? "" : "s"}`;
  if (blocking === 0) return `✓ ${path}: valid, ${counted} (none blocks an agent)\n`;
  return `✗ ${path}: valid, ${counted} (${blocking} ${blocking === 1 ? "blocks" : "block"} an agent — see Problems above)\n`;
}

function coolingText(c: { until: number; cls: string }, now: number): string {
  const sec = Math.max(1, Math.ceil((c.until - now) / 1000));
  const left = sec >= 120 ? `${Math.ceil(sec / 60)} min` : `${sec} s`;
  return `cooling down (${c.cls === "not_installed" ? "not installed" : c.cls}) for ${left}, until ${new Date(c.until).toISOString()}`;
}

export function formatCliLine(c: CliReport): string {
  return `  ${c.backend.padEnd(8)} ${cliLine(c)}`;
}

function cliLine(c: CliReport): string {
  if (!c.path) return `not found${c.usedByConfig ? "" : "  · not used by this config"}`;
  const parts = [`${c.path} (${c.via === "usual" ? "usual location, not on PATH" : c.via})`, c.version ? `v${c.version}` : "version unknown"];
  if (c.variantLabel) parts.push(c.variantLabel);
  parts.push(
    c.flagsUnchecked
      ? `flags unchecked (help ${c.flagsUnchecked})`
      : c.missingFlags.length
        ? `missing ${c.missingFlags.map((m) => m.flag).join(", ")}`
        : "flags ok",
  );
  parts.push(c.readiness === "ready" ? "signed in" : c.readiness === "not_ready" ? "NOT signed in" : "sign-in not checkable offline");
  if (!c.usedByConfig) parts.push("not used by this config");
  return parts.join(" · ");
}

/** One line per capability, one per deployment: model, host, the key variable's state (never its value), any cooldown. */
function formatAskCapability(c: AskCapabilityReport): string[] {
  const head = `  ${c.name} (${c.strategy}${c.fallbacks.length ? `, falls back to ${c.fallbacks.join(", ")}` : ""})`;
  return [
    head,
    ...c.deployments.map((d) => {
      const key = d.keyEnv === undefined ? "no key" : `${d.keyEnv} ${d.keySet ? "set" : "NOT set"}`;
      const cooling = d.coolingUntil !== undefined ? ` · cooling until ${new Date(d.coolingUntil).toISOString()}` : "";
      return `    ${d.id}: ${d.model} @ ${d.host ?? "?"} · ${key}${cooling}`;
    }),
  ];
}
