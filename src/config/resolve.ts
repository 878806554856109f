/**
 * A structurally valid unified file → the resolved Config: agents built, inline tier and slot
 * entries given stable ids, references and fallbacks checked, defaults applied (from defaults.ts).
 */
import { isAbsolute, resolve as resolvePath } from "node:path";
import { DEFAULT_COOLDOWNS, DEFAULTS } from "./defaults.ts";
import { resolveAsk } from "./ask/resolve.ts";
import { resolveWorkflow } from "./workflow/resolve.ts";
import { errorLine, joinPath } from "./format-errors.ts";
import { hasVersion } from "./model-id.ts";
import { expandHome, type Env } from "./paths.ts";
import { NAME, resolveAgent, type PathFn } from "./resolve-agent.ts";
import { checkAgentEntry, type Checked, type UnifiedFile } from "./schema.ts";
import { TIERS, type AgentConfig, type Config, type ReviewConfig, type Tier } from "./types.ts";

export interface ResolveOptions {
  source: Config["source"];
  env: Env;
  /** Maps a path in the unified shape to the key as written (legacy files differ). */
  path?: PathFn;
}

interface Ctx {
  agents: Record<string, AgentConfig>;
  /** Where each agent id was defined, for collision messages. */
  origins: Record<string, string>;
  /** Every key under agents:, valid or not: a reference to a broken one is not "unknown". */
  declared: Set<string>;
  errors: string[];
  path: PathFn;
}

function resolveNamedAgents(file: UnifiedFile, ctx: Ctx): void {
  for (const [id, entry] of Object.entries(file.agents ?? {})) {
    const at = ["agents", id];
    ctx.declared.add(id);
    if (!NAME.test(id)) {
      ctx.errors.push(errorLine(ctx.path(at), `${JSON.stringify(id)} is not a valid agent id`, "use at most 64 letters, digits, _, . or -"));
      continue;
    }
    const agent = resolveAgent(id, entry, at, ctx.path, ctx.errors);
    if (agent) {
      ctx.agents[id] = agent;
      ctx.origins[id] = ctx.path(at);
    }
  }
}

/** `heavy` for a single entry or the first of a list, `heavy.2` for the second, … */
function inlineId(name: string, index: number): string {
  return index === 0 ? name : `${name}.${index + 1}`;
}

function resolveInline(item: object, id: string, at: readonly PropertyKey[], ctx: Ctx): string | undefined {
  const checked = checkAgentEntry(item, at);
  if (!checked.ok) {
    ctx.errors.push(...checked.errors);
    return undefined;
  }
  const where = ctx.path(at);
  const taken = ctx.origins[id] ?? (ctx.declared.has(id) ? ctx.path(["agents", id]) : undefined);
  if (taken) {
    ctx.errors.push(
      errorLine(
        where,
        `inline entry gets the id ${JSON.stringify(id)}, already used by ${taken}`,
        `rename ${taken}, or name this agent under agents: and reference it by id`,
      ),
    );
    return undefined;
  }
  const agent = resolveAgent(id, checked.value, at, ctx.path, ctx.errors);
  if (!agent) return undefined;
  ctx.agents[id] = agent;
  ctx.origins[id] = where;
  return id;
}

function resolveItem(item: unknown, name: string, index: number, at: readonly PropertyKey[], ctx: Ctx): string | undefined {
  if (typeof item === "string") {
    if (ctx.declared.has(item)) return ctx.agents[item] ? item : undefined;
    ctx.errors.push(
      errorLine(
        ctx.path(at),
        `refers to an unknown agent ${JSON.stringify(item)}`,
        `define it under agents:, or use one of: ${[...ctx.declared].join(", ") || "(none defined)"}`,
      ),
    );
    return undefined;
  }
  if (typeof item === "object" && item !== null && !Array.isArray(item)) return resolveInline(item, inlineId(name, index), at, ctx);
  ctx.errors.push(
    errorLine(
      ctx.path(at),
      `must be an agent id or an agent object (was ${item === null ? "null" : Array.isArray(item) ? "a list" : typeof item})`,
      "write an id defined under agents:, or {backend: …, model: …}",
    ),
  );
  return undefined;
}

/** A tier or slot value: null | entry | entry[] (≤ 8) → agent ids, or null. */
function resolveList(value: unknown, name: string, at: readonly PropertyKey[], ctx: Ctx, nullable: boolean): string[] | null {
  if (value === null || value === undefined) {
    if (!nullable && value === null) ctx.errors.push(errorLine(ctx.path(at), "must not be null", "remove the slot, or give it an entry"));
    return null;
  }
  if (!Array.isArray(value)) {
    const id = resolveItem(value, name, 0, at, ctx);
    return id ? [id] : null;
  }
  if (value.length === 0) {
    ctx.errors.push(
      errorLine(ctx.path(at), "empty list", nullable ? "write null to leave it unconfigured, or add entries" : "remove the slot, or add entries"),
    );
    return null;
  }
  if (value.length > DEFAULTS.maxTierEntries) {
    ctx.errors.push(
      errorLine(
        ctx.path(at),
        `${value.length} entries, at most ${DEFAULTS.maxTierEntries} allowed`,
        `remove ${value.length - DEFAULTS.maxTierEntries} of them`,
      ),
    );
    return null;
  }
  const ids: string[] = [];
  value.forEach((item, i) => {
    const id = resolveItem(item, name, i, [...at, i], ctx);
    if (id === undefined) return;
    if (ids.includes(id)) ctx.errors.push(errorLine(ctx.path([...at, i]), `${JSON.stringify(id)} is listed twice`, "remove the repeat"));
    else ids.push(id);
  });
  return ids;
}

function resolveTiers(file: UnifiedFile, ctx: Ctx): Record<Tier, string[] | null> {
  const tiers: Record<Tier, string[] | null> = { light: null, standard: null, heavy: null };
  for (const tier of TIERS) tiers[tier] = resolveList(file.tiers?.[tier], tier, ["tiers", tier], ctx, true);
  return tiers;
}

/** A slot's name is a capability its entries have, so `caps: [name]` filters them in. */
function resolveSlots(file: UnifiedFile, ctx: Ctx): Record<string, string[]> {
  const slots: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(file.capabilities ?? {})) {
    const at = ["capabilities", name];
    if (!NAME.test(name)) {
      ctx.errors.push(errorLine(ctx.path(at), `${JSON.stringify(name)} is not a valid capability name`, "use letters, digits, _, . and - only"));
      continue;
    }
    const ids = resolveList(value, name, at, ctx, false);
    if (!ids) continue;
    slots[name] = ids;
    for (const id of ids) {
      const agent = ctx.agents[id];
      if (agent && !agent.capabilities.includes(name)) agent.capabilities.push(name);
    }
  }
  return slots;
}

function resolveFallbacks(file: UnifiedFile, ctx: Ctx): Partial<Record<Tier, Tier>> {
  const fallbacks: Partial<Record<Tier, Tier>> = { ...(file.fallbacks ?? {}) };
  const reported = new Set<Tier>();
  for (const start of TIERS) {
    const target = fallbacks[start];
    if (target === undefined || reported.has(start)) continue;
    if (target === start) {
      ctx.errors.push(errorLine(ctx.path(["fallbacks", start]), `${start} falls back to itself`, `remove fallbacks.${start}`));
      reported.add(start);
      continue;
    }
    const chain: Tier[] = [start];
    let next: Tier | undefined = target;
    while (next !== undefined && !chain.includes(next)) {
      chain.push(next);
      next = fallbacks[next];
    }
    if (next !== start) continue;
    for (const t of chain) reported.add(t);
    ctx.errors.push(errorLine(ctx.path(["fallbacks", start]), `fallback cycle ${[...chain, start].join(" → ")}`, "remove one of these fallbacks"));
  }
  return fallbacks;
}

function resolveAbsolute(raw: string, at: readonly PropertyKey[], ctx: Ctx, env: Env): string | undefined {
  const expanded = expandHome(raw, env);
  if (!isAbsolute(expanded)) {
    ctx.errors.push(errorLine(ctx.path(at), `${JSON.stringify(raw)} is not an absolute path`, "write an absolute path or one starting with ~/"));
    return undefined;
  }
  return resolvePath(expanded);
}

function resolveRoots(file: UnifiedFile, ctx: Ctx, env: Env): string[] {
  const roots: string[] = [];
  (file.roots ?? []).forEach((raw, i) => {
    const root = resolveAbsolute(raw, ["roots", i], ctx, env);
    if (root === "/") ctx.errors.push(errorLine(ctx.path(["roots", i]), "/ is never accepted as a root", "name the directories that hold your projects"));
    else if (root !== undefined && !roots.includes(root)) roots.push(root);
  });
  return roots;
}

function resolveStore(file: UnifiedFile, ctx: Ctx, env: Env): Config["store"] {
  const nested = file.store?.fullContent;
  const flat = file.store_full_content;
  if (nested !== undefined && flat !== undefined && nested !== flat) {
    ctx.errors.push(errorLine(ctx.path(["store_full_content"]), "disagrees with store.fullContent", "keep only store.fullContent"));
  }
  const path = file.store?.path === undefined ? undefined : resolveAbsolute(file.store.path, ["store", "path"], ctx, env);
  return { ...(path ? { path } : {}), fullContent: nested ?? flat ?? DEFAULTS.storeFullContent };
}

/**
 * host.model must carry a version (seed 001): identity has to be provably different, and a bare
 * alias ("opus") names no model another could be proven distinct from.
 */
function checkHost(file: UnifiedFile, ctx: Ctx): Config["host"] {
  if (!file.host) return {};
  const model = file.host.model;
  if (model !== undefined && !hasVersion(model)) {
    ctx.errors.push(
      errorLine(
        ctx.path(["host", "model"]),
        `${JSON.stringify(model)} has no version, so no other model can be proven to differ from it`,
        "write the host's versioned model id, e.g. claude-opus-5 or gpt-5.5 — or remove host.model to exclude every agent on the host's runtime",
      ),
    );
  }
  return { runtime: file.host.runtime, ...(model !== undefined ? { model } : {}) };
}

/** The most reviewers deep mode asks at once (seed 001: one to five). */
export const MAX_DEEP_REVIEWERS = 5;

/** `consult.review`: ids must name agents; `reviewers` holds exactly one, `deep_reviewers` one to five. */
function resolveReview(file: UnifiedFile, ctx: Ctx): ReviewConfig | undefined {
  const block = file.consult?.review;
  if (!block) return undefined;
  const at = ["consult", "review"];
  if (block.reviewers === undefined && block.deep_reviewers === undefined) {
    ctx.errors.push(
      errorLine(ctx.path(at), "names no reviewers", "add reviewers: [one agent id] for standard reviews and/or deep_reviewers: [one to five ids]"),
    );
    return undefined;
  }
  const reviewers = reviewerIds(block.reviewers ?? [], [...at, "reviewers"], ctx);
  const deepReviewers = reviewerIds(block.deep_reviewers ?? [], [...at, "deep_reviewers"], ctx);
  if (block.reviewers !== undefined && block.reviewers.length !== 1) {
    ctx.errors.push(
      errorLine(
        ctx.path([...at, "reviewers"]),
        `standard reviews take exactly one reviewer (${block.reviewers.length} listed)`,
        "list one agent id; put more under deep_reviewers",
      ),
    );
  }
  if (block.deep_reviewers !== undefined && (block.deep_reviewers.length < 1 || block.deep_reviewers.length > MAX_DEEP_REVIEWERS)) {
    ctx.errors.push(
      errorLine(
        ctx.path([...at, "deep_reviewers"]),
        `deep reviews take one to ${MAX_DEEP_REVIEWERS} reviewers (${block.deep_reviewers.length} listed)`,
        `list between 1 and ${MAX_DEEP_REVIEWERS} agent ids`,
      ),
    );
  }
  return { reviewers, deepReviewers };
}

function reviewerIds(ids: readonly string[], at: readonly PropertyKey[], ctx: Ctx): string[] {
  const out: string[] = [];
  ids.forEach((id, i) => {
    if (!ctx.declared.has(id))
      ctx.errors.push(
        errorLine(
          ctx.path([...at, i]),
          `refers to an unknown agent ${JSON.stringify(id)}`,
          `define it under agents:, or use one of: ${[...ctx.declared].join(", ") || "(none defined)"}`,
        ),
      );
    else if (out.includes(id)) ctx.errors.push(errorLine(ctx.path([...at, i]), `${JSON.stringify(id)} is listed twice`, "remove the repeat"));
    else out.push(id);
  });
  return out;
}

export function resolveUnified(file: UnifiedFile, opts: ResolveOptions): Checked<Config> {
  const ctx: Ctx = { agents: {}, origins: {}, declared: new Set(), errors: [], path: opts.path ?? joinPath };
  resolveNamedAgents(file, ctx);
  const tiers = resolveTiers(file, ctx);
  const capabilitySlots = resolveSlots(file, ctx);
  const fallbacks = resolveFallbacks(file, ctx);
  const roots = resolveRoots(file, ctx, opts.env);
  const store = resolveStore(file, ctx, opts.env);
  const host = checkHost(file, ctx);
  const review = resolveReview(file, ctx);
  const workflow = resolveWorkflow(file.consult?.workflow, store.fullContent, ctx);
  const ask = resolveAsk(file.ask, ctx.path, ctx.errors, opts.env);
  if (ctx.errors.length > 0) return { ok: false, errors: ctx.errors };
  return {
    ok: true,
    value: {
      source: opts.source,
      agents: ctx.agents,
      tiers,
      capabilitySlots,
      fallbacks,
      allowCrossProviderFallback: file.allowCrossProviderFallback ?? DEFAULTS.allowCrossProviderFallback,
      roots,
      maxDepth: file.maxDepth ?? DEFAULTS.maxDepth,
      host,
      consult: {
        timeoutSec: file.consult?.timeoutSec ?? DEFAULTS.consultTimeoutSec,
        ...(file.consult?.webTurnLimit !== undefined ? { webTurnLimit: file.consult.webTurnLimit } : {}),
        ...(review ? { review } : {}),
        ...(workflow ? { workflow } : {}),
      },
      store,
      cooldowns: { ...DEFAULT_COOLDOWNS, ...(file.cooldowns ?? {}) },
      ...(file.syncBudgetSec !== undefined ? { syncBudgetSec: file.syncBudgetSec } : {}),
      defaults: {
        timeoutSec: file.defaults?.timeoutSec ?? DEFAULTS.timeoutSec,
        stallSec: file.defaults?.stallSec ?? DEFAULTS.stallSec,
        quotaWarnPercent: file.defaults?.quotaWarnPercent ?? DEFAULTS.quotaWarnPercent,
      },
      ask,
      ...(file.prices ? { prices: file.prices } : {}),
    },
  };
}
