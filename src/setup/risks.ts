/**
 * Every risk a config carries, computed by orchestrate (never taken from the caller): shown by the
 * wizard, `init_preview`, `init_apply` and `accept-pending` before anything is written.
 *
 * What can never be used is found with the router's own planner (routing/plan.ts), so the summary
 * cannot disagree with what `route` will do: an entry the planner skips for consent is dead
 * whatever happens, and — when the wizard passes what it detected — so is one whose CLI is not
 * installed, signed out or unusable. Each is named with its fix (issue 22: "Risks: none found" for
 * a config whose every fallback crossed providers with the crossing answered No).
 */
import { basename, dirname, resolve } from "node:path";
import type { AgentConfig, Config } from "../config/types.ts";
import { TIERS } from "../config/types.ts";
import { homeDir, type Env } from "../config/paths.ts";
import { parentProblems } from "../config/secure-read.ts";
import { adapters } from "../backends/index.ts";
import { planRoute } from "../routing/plan.ts";
import type { BackendProbe } from "../doctor/detect.ts";

export interface Risk {
  /** A generic code below, or one a backend's `risks` names (danger_full_access, bypass_permissions). */
  code: string;
  message: string;
}

export interface RiskContext {
  targetPath?: string;
  env?: Env;
  /** What the wizard detected: agents whose CLI cannot run are then named too. */
  probes?: readonly BackendProbe[];
}

export function computeRisks(config: Config, ctx: RiskContext = {}): Risk[] {
  const risks: Risk[] = [];
  for (const agent of Object.values(config.agents)) risks.push(...agentRisks(agent));
  if (config.allowCrossProviderFallback && Object.keys(config.fallbacks).length > 0) {
    risks.push({
      code: "cross_provider_fallback",
      message: "allowCrossProviderFallback: a fallback may send your prompt and repository content to a different provider",
    });
  }
  risks.push(...unusableEntries(config, ctx.probes));
  if (config.maxDepth > 1)
    risks.push({ code: "deep_delegation", message: `maxDepth ${config.maxDepth}: delegates may delegate again; costs and loops multiply` });
  risks.push(...rootRisks(config, ctx.env));
  risks.push(...cooldownRisks(config));
  if (ctx.targetPath) {
    for (const p of parentProblems(ctx.targetPath)) risks.push({ code: "shared_config_dir", message: `${p.problem} (fix: ${p.fix})` });
  }
  return risks;
}

/** Variables that make the CLI (a node, a shell or a dynamic linker) load code the agent never asked for. */
const LOADS_CODE =
  /^(NODE_OPTIONS|NODE_PATH|LD_PRELOAD|LD_LIBRARY_PATH|LD_AUDIT|DYLD_\w+|PYTHONPATH|PYTHONSTARTUP|PERL5OPT|PERL5LIB|RUBYOPT|BASH_ENV|ENV|BUN_OPTIONS)$/;
/** Variables that point a CLI at another server than its provider's. */
const REDIRECTS = /(_BASE_URL|_API_BASE|_API_URL|_ENDPOINT|_HOST)$|^(HTTPS?_PROXY|ALL_PROXY)$/i;

function agentRisks(agent: AgentConfig): Risk[] {
  // Settings only one backend has (codex's sandbox, claude's permission mode): that backend says what is risky.
  const risks: Risk[] = [...(adapters[agent.backend].risks?.(agent) ?? [])];
  if (agent.aggregator)
    risks.push({ code: "aggregator", message: `${agent.id}: ${agent.model} goes through an aggregator; it always counts as another provider` });
  for (const [name, value] of Object.entries(agent.env)) {
    if (LOADS_CODE.test(name))
      risks.push({
        code: "env_loads_code",
        message: `${agent.id}: env ${name} makes the CLI load code of its own choosing before it starts (fix: remove it unless you put it there on purpose)`,
      });
    // Only the host is quoted: a URL may carry a password.
    else if (REDIRECTS.test(name))
      risks.push({
        code: "foreign_base_url",
        message: `${agent.id}: env ${name} sends this agent's prompts and repository content to ${hostOf(value)} instead of its provider's own servers (fix: remove it unless you run that server)`,
      });
  }
  if (agent.command !== undefined && basename(agent.command) !== agent.backend) {
    risks.push({
      code: "nonstandard_command",
      message: `${agent.id}: command ${agent.command} runs instead of ${agent.backend} — orchestrate drives it as ${agent.backend} with your prompts (fix: remove command: unless it is ${agent.backend} under another name)`,
    });
  }
  return risks;
}

function hostOf(value: string): string {
  try {
    return new URL(value).host || "another server";
  } catch {
    return "another server";
  }
}

/**
 * Entries `route` can never reach, by the router's own decisions (every tier planned with no
 * cooldown: a skip then is for good), then — with the detection — those whose CLI cannot run.
 */
function unusableEntries(config: Config, probes: readonly BackendProbe[] | undefined): Risk[] {
  const risks: Risk[] = [];
  const seen = new Set<string>();
  const add = (key: string, risk: Risk) => {
    if (seen.has(key)) return;
    seen.add(key);
    risks.push(risk);
  };
  for (const tier of TIERS) {
    const planned = planRoute({ tier, caps: [] }, config, new Map(), 0);
    if (!planned.ok) continue;
    for (const d of planned.plan.decisions) {
      const agent = config.agents[d.agentId];
      if (d.decision !== "skip" || !agent || !agent.enabled || !d.reason.startsWith("would cross")) continue;
      add(`cross:${tier}:${agent.id}`, {
        code: "fallback_never_used",
        message: `${tier}: the fallback to ${agent.id} (${d.tier} tier, provider ${agent.provider}) can never be used — it would cross from provider ${planned.plan.homeProvider ?? "?"} and cross-provider fallback is off (fix: allow it with allowCrossProviderFallback: true, or fall back to a tier on ${planned.plan.homeProvider ?? "the same provider"})`,
      });
    }
  }
  if (!probes) return risks;
  for (const agent of reachable(config)) {
    if (agent.advisory || !agent.enabled || (agent.command !== undefined && agent.command !== agent.backend)) continue;
    const probe = probes.find((p) => p.backend === agent.backend);
    for (const p of probe?.problems.filter((x) => x.blocks) ?? []) {
      add(`cli:${agent.id}:${p.problem}`, { code: "agent_cannot_run", message: `${agent.id} cannot be used as things stand: ${p.problem} (fix: ${p.hint})` });
    }
  }
  return risks;
}

/** Agents a tier or a capability slot lists. */
function reachable(config: Config): AgentConfig[] {
  const ids = new Set<string>();
  for (const tier of TIERS) for (const id of config.tiers[tier] ?? []) ids.add(id);
  for (const slot of Object.values(config.capabilitySlots)) for (const id of slot) ids.add(id);
  return [...ids].map((id) => config.agents[id]).filter((a): a is AgentConfig => a !== undefined);
}

/** A root that is the home directory (or holds it) lets delegates work anywhere in it: dotfiles, keys, other repositories. */
function rootRisks(config: Config, env: Env | undefined): Risk[] {
  if (!env) return [];
  const home = resolve(homeDir(env));
  return config.roots
    .filter((root) => home === root || home.startsWith(root === "/" ? "/" : `${root}/`) || root === dirname(home))
    .map((root) => ({
      code: "root_is_home",
      message: `roots: ${root} holds your whole home directory — delegates may work on your dotfiles, SSH keys and every other repository in it (fix: name the directories that hold your projects, e.g. ~/Projects)`,
    }));
}

function cooldownRisks(config: Config): Risk[] {
  const off = Object.entries(config.cooldowns)
    .filter(([, sec]) => sec === 0)
    .map(([name]) => name);
  if (off.length === 0) return [];
  return [
    {
      code: "cooldowns_off",
      message: `cooldowns ${off.join(", ")} is 0: an agent that just failed (signed out, rate-limited) is tried again on every call, each paying its failure again (fix: remove the key to keep the default)`,
    },
  ];
}

export function formatRisks(risks: Risk[]): string {
  if (risks.length === 0) return "Risks: none found.\n";
  return `Risks:\n${risks.map((r) => `  ⚠ ${r.message}`).join("\n")}\n`;
}
