/** Wizard steps that build agents: one tier at a time, entries in order, every pick confirmed. */
import { adapters, type Backend } from "../backends/index.ts";
import type { Tier } from "../config/types.ts";
import type { BackendProbe } from "../doctor/detect.ts";
import type { FoundAcpLaunch } from "./acp-launches.ts";
import { select, text, type Choice } from "./prompts.ts";

export type AgentSpec = {
  backend: Backend;
  model?: string;
  transport?: "acp";
  command?: string[];
  provider?: string;
  /** Answers to the backend's own questions (codex's sandbox, claude's permission mode), by option key. */
  options?: Record<string, string>;
  scores?: Record<string, number>;
};

export interface AgentBook {
  agents: Record<string, AgentSpec>;
  tiers: Record<Tier, string[] | null>;
}

const MAX_ENTRIES = 8;
const TYPE_OWN = "\u0000type";
const DONE = "\u0000done";

function readinessHint(p: BackendProbe): string {
  const version = p.version ? `v${p.version}` : "version unknown";
  const ready = p.readiness === "ready" ? "signed in" : p.readiness === "not_ready" ? "NOT signed in" : "sign-in unknown";
  return `${version} · ${ready}${p.missingFlags.length ? ` · missing ${p.missingFlags.map((m) => m.flag).join(", ")}` : ""}`;
}

/** Walks one tier: pick backends and models until the person is done (at most 8 entries). */
const ACP_PICK = "\u0000acp:";

/** The choices for one tier entry: stop, each installed headless CLI, then each ACP launch found on PATH. */
export function tierChoices(stop: Choice<string>, installed: BackendProbe[], acp: readonly FoundAcpLaunch[]): Choice<string>[] {
  return [
    stop,
    ...installed.map((p) => ({ value: p.backend as string, label: p.backend, hint: readinessHint(p) })),
    ...acp.map((a) => ({ value: `${ACP_PICK}${a.executable}`, label: a.label, hint: `ACP · ${a.path}` })),
  ];
}

/** The config entry an ACP launch becomes, with the model the person chose (none: the agent's own default). */
export function acpSpec(launch: FoundAcpLaunch, model: string | undefined): AgentSpec {
  return { ...launch.entry, ...(model ? { model } : {}) };
}

export async function askTier(
  tier: Tier,
  installed: BackendProbe[],
  models: Partial<Record<Backend, string[]>>,
  book: AgentBook,
  acp: readonly FoundAcpLaunch[] = [],
): Promise<void> {
  const ids: string[] = [];
  while (ids.length < MAX_ENTRIES) {
    const stop: Choice<string> = ids.length === 0 ? { value: DONE, label: `Leave ${tier} unconfigured` } : { value: DONE, label: `Done with ${tier}` };
    const options = tierChoices(stop, installed, acp);
    const title = ids.length === 0 ? `${tier} tier — which backend serves it first?` : `${tier} tier — add entry ${ids.length + 1} (tried in order)?`;
    const picked = await select(title, options);
    if (picked === DONE) break;
    const launch = acp.find((a) => `${ACP_PICK}${a.executable}` === picked);
    if (launch) {
      const id = uniqueId(`${tier}-${launch.executable}`, book.agents);
      book.agents[id] = acpSpec(launch, await askAcpModel(launch, models));
      ids.push(id);
      continue;
    }
    const backend = installed.find((p) => p.backend === picked)?.backend;
    if (!backend) continue;
    const spec = await askAgent(backend, models[backend] ?? []);
    const id = uniqueId(`${tier}-${backend}`, book.agents);
    book.agents[id] = spec;
    ids.push(id);
  }
  book.tiers[tier] = ids.length ? ids : null;
}

async function askAgent(backend: Backend, listed: string[]): Promise<AgentSpec> {
  const wizard = adapters[backend].wizard;
  const spec: AgentSpec = { backend, model: await askModel(backend, listed) };
  // Settings only this backend has (codex's sandbox, claude's permission mode), as it words them.
  const options: Record<string, string> = {};
  for (const question of wizard?.questions ?? []) options[question.key] = await select(question.title, question.choices);
  if (Object.keys(options).length > 0) spec.options = options;
  return spec;
}

/**
 * The list is what the CLI itself printed (untrusted), or else the ids and aliases its backend
 * documents (wizard.suggested): only ever choices, never a default.
 */
async function askModel(backend: Backend, listed: string[]): Promise<string> {
  const wizard = adapters[backend].wizard;
  const offered = listed.length > 0 ? listed : (wizard?.suggested ?? []);
  if (offered.length > 0) {
    const source = listed.length > 0 ? `as listed by ${backend}; unverified` : `aliases and ids ${backend} documents`;
    const options: Choice<string>[] = [...offered.map((m) => ({ value: m, label: m })), { value: TYPE_OWN, label: "Type another model id" }];
    const picked = await select(`Model for ${backend} (${source})`, options);
    if (picked !== TYPE_OWN) return picked;
  }
  const hint = wizard?.modelHint ?? "a model id your CLI accepts";
  return text(`Model id for ${backend} (${hint})`, { validate: (typed) => modelProblem(typed, wizard?.validModel, hint) });
}

export function modelProblem(typed: string, valid: ((id: string) => boolean) | undefined, hint: string): string | undefined {
  if (typed === "") return "a model is needed: orchestrate never picks one for you";
  if (/\s/.test(typed)) return "a model id has no spaces";
  if (valid && !valid(typed)) return `not a model id this CLI takes: write ${hint}`;
  return undefined;
}

function uniqueId(base: string, taken: Record<string, unknown>): string {
  if (!(base in taken)) return base;
  let n = 2;
  while (`${base}-${n}` in taken) n++;
  return `${base}-${n}`;
}

/** A known backend over ACP takes a model as headless; a generic agent may keep its own default. */
async function askAcpModel(launch: FoundAcpLaunch, models: Partial<Record<Backend, string[]>>): Promise<string | undefined> {
  if (!adapters[launch.entry.backend].modelOptional) return askModel(launch.entry.backend, models[launch.entry.backend] ?? []);
  const typed = await text(`Model id for ${launch.label} (empty: the agent's own default, identity unverified)`, { validate: () => undefined });
  return typed.trim() || undefined;
}
