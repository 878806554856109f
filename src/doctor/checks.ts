/**
 * The doctor: for each backend the config uses (and every known one), where its CLI resolves from.
 * Version and flag-compatibility probes grow here (issue: setup).
 */
import { BACKENDS, type Backend } from "../adapters/types.ts";
import type { Config, Tier } from "../config/types.ts";
import { TIERS } from "../config/types.ts";
import { resolveCommand } from "../process/resolve.ts";

export interface CliReport {
  backend: Backend;
  command: string;
  path?: string;
  via?: string;
  usedByConfig: boolean;
}

export interface DoctorReport {
  tiers: { tier: Tier; agents: string[] | null }[];
  capabilities: { name: string; agents: string[] }[];
  agents: { id: string; backend: Backend; model?: string; provider: string; advisory: boolean; enabled: boolean }[];
  clis: CliReport[];
  problems: string[];
}

export async function runDoctor(config: Config, env: Record<string, string | undefined>): Promise<DoctorReport> {
  const used = new Map<Backend, string>();
  for (const agent of Object.values(config.agents)) if (!agent.advisory) used.set(agent.backend, agent.command ?? agent.backend);
  const clis = BACKENDS.map((backend) => cliReport(backend, used.get(backend) ?? backend, used.has(backend), env));
  const problems = clis.filter((c) => c.usedByConfig && !c.path).map((c) => `${c.backend} is configured but its CLI (${c.command}) was not found; install it or set command: to its absolute path.`);
  return {
    tiers: TIERS.map((tier) => ({ tier, agents: config.tiers[tier] })),
    capabilities: Object.entries(config.capabilitySlots).map(([name, agents]) => ({ name, agents })),
    agents: Object.values(config.agents).map((a) => ({ id: a.id, backend: a.backend, ...(a.model ? { model: a.model } : {}), provider: a.provider, advisory: a.advisory, enabled: a.enabled })),
    clis,
    problems,
  };
}

function cliReport(backend: Backend, command: string, usedByConfig: boolean, env: Record<string, string | undefined>): CliReport {
  const found = resolveCommand(command, { env });
  return { backend, command, usedByConfig, ...(found ? { path: found.path, via: found.via } : {}) };
}
