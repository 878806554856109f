/** Wizard steps that build agents: one tier at a time, entries in order, every pick confirmed. */
import { adapters, type Backend } from "../backends/index.ts";
import type { Tier } from "../config/types.ts";
import type { BackendProbe } from "../doctor/detect.ts";
import { select, text, type Choice } from "./prompts.ts";

export type AgentSpec = { backend: Backend; model: string; sandbox?: string; permissionMode?: string; scores?: Record<string, number> };

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
export async function askTier(tier: Tier, installed: BackendProbe[], models: Partial<Record<Backend, string[]>>, book: AgentBook): Promise<void> {
  const ids: string[] = [];
  while (ids.length < MAX_ENTRIES) {
    const stop: Choice<string> = ids.length === 0 ? { value: DONE, label: `Leave ${tier} unconfigured` } : { value: DONE, label: `Done with ${tier}` };
    const options = [stop, ...installed.map((p) => ({ value: p.backend as string, label: p.backend, hint: readinessHint(p) }))];
    const title = ids.length === 0 ? `${tier} tier — which backend serves it first?` : `${tier} tier — add entry ${ids.length + 1} (tried in order)?`;
    const picked = await select(title, options);
    if (picked === DONE) break;
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
  for (const question of wizard?.questions ?? []) spec[question.key] = await select(question.title, question.choices);
  return spec;
}

/** The list is what the CLI itself printed — untrusted, so it is only ever a choice, never a default. */
async function askModel(backend: Backend, listed: string[]): Promise<string> {
  if (listed.length > 0) {
    const options: Choice<string>[] = [...listed.map((m) => ({ value: m, label: m })), { value: TYPE_OWN, label: "Type another model id" }];
    const picked = await select(`Model for ${backend} (as listed by ${backend}; unverified)`, options);
    if (picked !== TYPE_OWN) return picked;
  }
  const wizard = adapters[backend].wizard;
  const hint = wizard?.modelHint ?? "a model id your CLI accepts";
  for (;;) {
    const typed = await text(`Model id for ${backend} (${hint})`, { placeholder: hint });
    if (typed && !/\s/.test(typed) && (wizard?.validModel?.(typed) ?? true)) return typed;
  }
}

function uniqueId(base: string, taken: Record<string, unknown>): string {
  if (!(base in taken)) return base;
  let n = 2;
  while (`${base}-${n}` in taken) n++;
  return `${base}-${n}`;
}
