/**
 * The `orchestrate init` questions, in order: tiers (entries in order), capability slots, consult
 * scores, fallbacks and the cross-provider opt-in, the host, the projects root. Returns the unified config object;
 * writing is the command's job, after the diff and risks were shown.
 */
import { BACKENDS, type Backend } from "../backends/index.ts";
import { TIERS, type Tier } from "../config/types.ts";
import type { BackendProbe } from "../doctor/detect.ts";
import type { FoundAcpLaunch } from "./acp-launches.ts";
import { confirm, select, text } from "./prompts.ts";
import { askTier, type AgentBook, type AgentSpec } from "./wizard-agents.ts";
import { askRoots, type RootsContext } from "./wizard-roots.ts";

export interface WizardInput {
  probes: BackendProbe[];
  models: Partial<Record<Backend, string[]>>;
  /** `--host RUNTIME`: skips the host question. */
  host?: Backend;
  /** For the projects-root question. */
  roots: RootsContext;
  /** ACP launches found on PATH (src/backends/known-acp.ts), offered beside the headless CLIs. */
  acp?: FoundAcpLaunch[];
}

export async function askForConfig(input: WizardInput): Promise<Record<string, unknown>> {
  const installed = input.probes.filter((p) => p.path);
  const book: AgentBook = { agents: {}, tiers: { light: null, standard: null, heavy: null } };
  for (const tier of TIERS) await askTier(tier, installed, input.models, book, input.acp ?? []);
  const capabilities = await askSlots(book);
  await askScores(book);
  const fallbacks = await askFallbacks(book);
  const cross = Object.keys(fallbacks).length > 0 && (await confirm("Allow a fallback to send your prompt and repository to a different provider?", false));
  const host = input.host ?? (await askHost());
  const roots = await askRoots(input.roots);
  return {
    agents: flatAgents(book.agents),
    tiers: book.tiers,
    ...(roots.length ? { roots } : {}),
    ...(Object.keys(capabilities).length ? { capabilities } : {}),
    ...(Object.keys(fallbacks).length ? { fallbacks } : {}),
    allowCrossProviderFallback: cross,
    ...(host ? { host: { runtime: host } } : {}),
  };
}

async function askSlots(book: AgentBook): Promise<Record<string, string[]>> {
  const slots: Record<string, string[]> = {};
  const ids = Object.keys(book.agents);
  if (ids.length === 0) return slots;
  while (
    await confirm(Object.keys(slots).length ? "Add another capability slot?" : "Add a capability slot (e.g. vision) that route's caps can ask for?", false)
  ) {
    const name = await text("Capability name", {
      placeholder: "vision",
      validate: (n) => (/^[A-Za-z0-9_.-]{1,64}$/.test(n) ? undefined : "use 1–64 letters, digits, _, . or -"),
    });
    const agent = await select(
      `Which agent serves ${name}?`,
      ids.map((id) => ({ value: id, label: id, hint: `${book.agents[id]?.backend} · ${book.agents[id]?.model}` })),
    );
    slots[name] = [...(slots[name] ?? []), agent];
  }
  return slots;
}

/** Consult picks by score per capability (coding, review, research, …); none = never consulted. */
async function askScores(book: AgentBook): Promise<void> {
  if (Object.keys(book.agents).length === 0) return;
  if (!(await confirm("Offer these agents to consult, with scores per capability?", false))) return;
  for (const [id, agent] of Object.entries(book.agents)) {
    const typed = await text(`Scores for ${id} (${agent.backend} · ${agent.model}), e.g. coding=90,review=80 — empty for none`, {
      validate: (t) => parseScores(t).problem,
    });
    const { scores } = parseScores(typed);
    if (Object.keys(scores).length) agent.scores = scores;
  }
}

/** `coding=90, review=80` → scores; any part that is not `name=0..100` is the problem, named. */
export function parseScores(typed: string): { scores: Record<string, number>; problem?: string } {
  const scores: Record<string, number> = {};
  const bad: string[] = [];
  for (const part of typed.split(",")) {
    if (part.trim() === "") continue;
    const match = /^\s*([A-Za-z0-9_.-]{1,64})\s*[=:]\s*(\d{1,3})\s*$/.exec(part);
    if (match?.[1] && Number(match[2]) <= 100) scores[match[1]] = Number(match[2]);
    else bad.push(part.trim());
  }
  if (bad.length === 0) return { scores };
  return {
    scores,
    problem: `not a score: ${bad.map((b) => JSON.stringify(b)).join(", ")} — write capability=0..100, comma-separated (e.g. coding=90,review=80), or leave it empty`,
  };
}

async function askFallbacks(book: AgentBook): Promise<Partial<Record<Tier, Tier>>> {
  const configured = TIERS.filter((t) => book.tiers[t]);
  const fallbacks: Partial<Record<Tier, Tier>> = {};
  if (configured.length < 2) return fallbacks;
  for (const tier of configured) {
    const options = [
      { value: "", label: "No fallback" },
      ...configured.filter((t) => t !== tier && !leadsTo(fallbacks, t, tier)).map((t) => ({ value: t as string, label: t })),
    ];
    const picked = await select(`When ${tier} fails fast and cleanly (tree unchanged), fall back to`, options);
    if (picked) fallbacks[tier] = picked as Tier;
  }
  return fallbacks;
}

/** Whether following fallbacks from `from` reaches `to` (a pick that would close a cycle). */
function leadsTo(fallbacks: Partial<Record<Tier, Tier>>, from: Tier, to: Tier): boolean {
  const seen = new Set<Tier>();
  for (let t: Tier | undefined = from; t && !seen.has(t); t = fallbacks[t]) {
    if (t === to) return true;
    seen.add(t);
  }
  return false;
}

async function askHost(): Promise<Backend | undefined> {
  const picked = await select("Which client runs orchestrate (consult never picks the host's own runtime)?", [
    { value: "", label: "Not set (use ORCHESTRATE_HOST_RUNTIME)" },
    ...BACKENDS.map((b) => ({ value: b as string, label: b })),
  ]);
  return picked ? (picked as Backend) : undefined;
}

/** A backend's own settings sit beside the other keys of its entry in the config file (sandbox: read-only). */
function flatAgents(agents: AgentBook["agents"]): Record<string, Omit<AgentSpec, "options"> & Record<string, unknown>> {
  return Object.fromEntries(Object.entries(agents).map(([id, { options, ...spec }]) => [id, { ...spec, ...options }]));
}
