import type { DoctorReport } from "./checks.ts";

export function formatDoctor(r: DoctorReport): string {
  const lines: string[] = ["Tiers:"];
  for (const t of r.tiers) lines.push(`  ${t.tier.padEnd(8)} ${t.agents ? t.agents.join(" → ") : "(unconfigured)"}`);
  if (r.capabilities.length) lines.push("Capability slots:", ...r.capabilities.map((c) => `  ${c.name.padEnd(8)} ${c.agents.join(", ")}`));
  lines.push("Agents:");
  for (const a of r.agents) lines.push(`  ${a.id}: ${a.backend}${a.model ? ` · ${a.model}` : ""} [${a.provider}]${a.advisory ? " advisory" : ""}${a.enabled ? "" : " disabled"}`);
  lines.push("CLIs:");
  for (const c of r.clis) lines.push(`  ${c.backend.padEnd(8)} ${c.path ? `${c.path} (${c.via})` : "not found"}${c.usedByConfig ? "" : "  · not used by this config"}`);
  if (r.problems.length) lines.push("Problems:", ...r.problems.map((p) => `  ! ${p}`));
  return `${lines.join("\n")}\n`;
}
