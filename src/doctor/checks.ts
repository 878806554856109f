/**
 * The doctor (`orchestrate check`): after the hardened load succeeded, every backend's resolved
 * path, version, flag compatibility and readiness, the agents cooling down now, the ask
 * capabilities' deployments and cooldowns, the store's health, and one hint per problem.
 */
import { adapters, type Backend } from "../backends/index.ts";
import type { Config, Tier } from "../config/types.ts";
import { TIERS } from "../config/types.ts";
import { agentIdentityKey } from "../services/shared/cooling.ts";
import type { Cooldown } from "../store/cooldowns.ts";
import { acpProblems, acpReport, type AcpAgentReport } from "./acp.ts";
import { activeCooldowns, askProblems, askReport, storedQuota, type AskCapabilityReport } from "./ask.ts";
import { quotaSummary } from "../routing/quota.ts";
import { detectBackends, type BackendProbe, type ProbeProblem } from "./detect.ts";
import { probeCachePath } from "./probe-cache.ts";
import { storeHealth, type StoreHealth } from "./store.ts";

export interface CliReport extends BackendProbe {
  usedByConfig: boolean;
}

export type DoctorProblem = ProbeProblem;

export interface DoctorReport {
  tiers: { tier: Tier; agents: string[] | null }[];
  capabilities: { name: string; agents: string[] }[];
  agents: { id: string; backend: Backend; model?: string; provider: string; advisory: boolean; enabled: boolean; cooldown?: Cooldown; quota?: string }[];
  clis: CliReport[];
  /** Agents driven over ACP: their `initialize` answers. */
  acp: AcpAgentReport[];
  /** Seed 002's ask capabilities with their deployments; empty when none is configured. */
  ask: AskCapabilityReport[];
  store: StoreHealth;
  problems: DoctorProblem[];
}

export interface DoctorOptions {
  /** Each CLI's finding as soon as it answers (the CLIs are probed in parallel). */
  onCli?: (cli: CliReport) => void;
  now?: number;
  /** Each probe's first limit (tests); the default is capture.ts's. */
  probeTimeoutMs?: number;
}

export async function runDoctor(config: Config, env: Record<string, string | undefined>, opts: DoctorOptions = {}): Promise<DoctorReport> {
  const commands: Partial<Record<Backend, string>> = {};
  // An ACP agent's launch is no headless CLI to probe: it gets its own handshake (acp.ts).
  for (const agent of Object.values(config.agents))
    if (!agent.advisory && agent.enabled && agent.transport !== "acp") commands[agent.backend] ??= agent.command ?? agent.backend;
  const { onCli } = opts;
  const acpReports = acpReport(config, env);
  const now = opts.now ?? Date.now();
  const probes = await detectBackends({
    env,
    commands,
    cacheFile: probeCachePath(env),
    ...(opts.probeTimeoutMs !== undefined ? { probeTimeoutMs: opts.probeTimeoutMs } : {}),
    ...(onCli ? { onProbe: (p: BackendProbe) => onCli({ ...p, usedByConfig: commands[p.backend] !== undefined }) } : {}),
  });
  const clis = probes.map((p) => ({ ...p, usedByConfig: commands[p.backend] !== undefined }));
  const store = storeHealth(config, env);
  const cooling = activeCooldowns(store.path, now);
  const ask = askReport(config.ask, env, cooling);
  const keyOf = new Map(Object.values(config.agents).map((a) => [a.id, agentIdentityKey({ env, adapters }, a)]));
  const quota = storedQuota(store.path, [...new Set(keyOf.values())]);
  const agents = Object.values(config.agents).map((a) => {
    // The key the router arms and reads (services/shared/cooling.ts), so check and route agree.
    const key = keyOf.get(a.id) ?? "";
    const cooldown = cooling.size ? cooling.get(key) : undefined;
    const q = quotaSummary(quota.get(key) ?? [], config.defaults.quotaWarnPercent, now);
    return {
      id: a.id,
      backend: a.backend,
      ...(a.model ? { model: a.model } : {}),
      provider: a.provider,
      advisory: a.advisory,
      enabled: a.enabled,
      ...(cooldown ? { cooldown } : {}),
      ...(q ? { quota: q } : {}),
    };
  });
  const acp = await acpReports;
  return {
    tiers: TIERS.map((tier) => ({ tier, agents: config.tiers[tier] })),
    capabilities: Object.entries(config.capabilitySlots).map(([name, agents]) => ({ name, agents })),
    agents,
    clis,
    acp,
    ask,
    store,
    problems: [...problemsOf(clis, store), ...acpProblems(acp), ...askProblems(ask)],
  };
}

/** Only backends the config uses count as problems; the others are listed for information. */
function problemsOf(clis: CliReport[], store: StoreHealth): DoctorProblem[] {
  const problems = clis.filter((c) => c.usedByConfig).flatMap((c) => c.problems);
  if (store.status === "error")
    problems.push({ problem: `store ${store.path}: ${store.message ?? "unusable"}`, hint: store.hint ?? "set ORCHESTRATE_DB to another file", blocks: true });
  return problems;
}

/** How many problems there are, and how many of them keep an agent (or every agent) from running. */
export function problemCounts(report: DoctorReport): { all: number; blocking: number } {
  return { all: report.problems.length, blocking: report.problems.filter((p) => p.blocks).length };
}
