/**
 * The doctor (`orchestrate check`): after the hardened load succeeded, every backend's resolved
 * path, version, flag compatibility and readiness, the ask capabilities' deployments and cooldowns,
 * the store's health, and one hint per problem.
 */
import type { Backend } from "../backends/index.ts";
import type { Config, Tier } from "../config/types.ts";
import { TIERS } from "../config/types.ts";
import { askProblems, askReport, type AskCapabilityReport } from "./ask.ts";
import { detectBackends, type BackendProbe } from "./detect.ts";
import { storeHealth, type StoreHealth } from "./store.ts";

export interface CliReport extends BackendProbe {
  usedByConfig: boolean;
}

export interface DoctorProblem {
  problem: string;
  hint: string;
}

export interface DoctorReport {
  tiers: { tier: Tier; agents: string[] | null }[];
  capabilities: { name: string; agents: string[] }[];
  agents: { id: string; backend: Backend; model?: string; provider: string; advisory: boolean; enabled: boolean }[];
  clis: CliReport[];
  /** Seed 002's ask capabilities with their deployments; empty when none is configured. */
  ask: AskCapabilityReport[];
  store: StoreHealth;
  problems: DoctorProblem[];
}

export interface DoctorOptions {
  /** Each CLI's finding as soon as it answers (the CLIs are probed in parallel). */
  onCli?: (cli: CliReport) => void;
}

export async function runDoctor(config: Config, env: Record<string, string | undefined>, opts: DoctorOptions = {}): Promise<DoctorReport> {
  const commands: Partial<Record<Backend, string>> = {};
  for (const agent of Object.values(config.agents)) if (!agent.advisory && agent.enabled) commands[agent.backend] ??= agent.command ?? agent.backend;
  const { onCli } = opts;
  const probes = await detectBackends({ env, commands, ...(onCli ? { onProbe: (p: BackendProbe) => onCli({ ...p, usedByConfig: commands[p.backend] !== undefined }) } : {}) });
  const clis = probes.map((p) => ({ ...p, usedByConfig: commands[p.backend] !== undefined }));
  const store = storeHealth(config, env);
  const ask = askReport(config.ask, env, store.path, Date.now());
  return {
    tiers: TIERS.map((tier) => ({ tier, agents: config.tiers[tier] })),
    capabilities: Object.entries(config.capabilitySlots).map(([name, agents]) => ({ name, agents })),
    agents: Object.values(config.agents).map((a) => ({ id: a.id, backend: a.backend, ...(a.model ? { model: a.model } : {}), provider: a.provider, advisory: a.advisory, enabled: a.enabled })),
    clis,
    ask,
    store,
    problems: [...problemsOf(clis, store), ...askProblems(ask)],
  };
}

/** Only backends the config uses count as problems; the others are listed for information. */
function problemsOf(clis: CliReport[], store: StoreHealth): DoctorProblem[] {
  const problems = clis.filter((c) => c.usedByConfig).flatMap((c) => c.problems);
  if (store.status === "error") problems.push({ problem: `store ${store.path}: ${store.message ?? "unusable"}`, hint: store.hint ?? "set ORCHESTRATE_DB to another file" });
  return problems;
}

