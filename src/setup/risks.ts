/**
 * Every risk a config carries, computed by orchestrate (never taken from the caller): shown by the
 * wizard, `init_preview`, `init_apply` and `accept-pending` before anything is written.
 */
import type { Config } from "../config/types.ts";
import { parentProblems } from "../config/secure-read.ts";
import { adapters } from "../backends/index.ts";

export interface Risk {
  /** A generic code below, or one a backend's `risks` names (danger_full_access, bypass_permissions). */
  code: string;
  message: string;
}

export function computeRisks(config: Config, targetPath?: string): Risk[] {
  const risks: Risk[] = [];
  for (const agent of Object.values(config.agents)) {
    // Settings only one backend has (codex's sandbox, claude's permission mode): that backend says what is risky.
    risks.push(...(adapters[agent.backend].risks?.(agent) ?? []));
    const bash = (agent.allowedTools ?? []).filter((rule) => /^Bash\b/i.test(rule.trim()));
    if (bash.length) risks.push({ code: "bash_allow_rule", message: `${agent.id}: allowedTools ${bash.join(", ")} — Bash rules are escapable by command chaining: effectively a full shell, the same risk as bypassPermissions` });
    if (agent.aggregator) risks.push({ code: "aggregator", message: `${agent.id}: ${agent.model} goes through an aggregator; it always counts as another provider` });
  }
  if (config.allowCrossProviderFallback && Object.keys(config.fallbacks).length > 0) {
    risks.push({ code: "cross_provider_fallback", message: "allowCrossProviderFallback: a fallback may send your prompt and repository content to a different provider" });
  }
  if (config.maxDepth > 1) risks.push({ code: "deep_delegation", message: `maxDepth ${config.maxDepth}: delegates may delegate again; costs and loops multiply` });
  if (targetPath) {
    for (const p of parentProblems(targetPath)) risks.push({ code: "shared_config_dir", message: `${p.problem} (fix: ${p.fix})` });
  }
  return risks;
}

export function formatRisks(risks: Risk[]): string {
  if (risks.length === 0) return "Risks: none found.\n";
  return `Risks:\n${risks.map((r) => `  ⚠ ${r.message}`).join("\n")}\n`;
}
