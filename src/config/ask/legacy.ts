/**
 * Seed 002's `config.yaml` (orchestrator-mcp: `capabilities`, LiteLLM's `model_list` and
 * `router_settings`, `limits`, and since 0.2.0 seed 001's `consult:` block) → the unified shape,
 * so the file works as written and `orchestrate import` can rewrite it. Its own startup checks
 * that need its own names happen here (a deployment routing to an undeclared capability, a
 * capability nothing serves, a fallback from an unknown one, an inline key); the rest is
 * resolve-ask.ts, with error paths mapped back to the keys as written.
 */
import { LIMIT_NAMES, REFUSED_PARAMS, REFUSED_ROUTER } from "./defs.ts";
import { errorLine, joinPath } from "../format-errors.ts";
import { convertOrchestrator, orchestratorPath } from "../legacy.ts";
import type { Env } from "../paths.ts";
import type { PathFn } from "../resolve-agent.ts";
import type { AskBlockFile, AskDeploymentFile, AskRouterFile, UnifiedFile } from "../schema.ts";

export interface AskConverted {
  file: UnifiedFile;
  /** Dotted paths of keys accepted without effect. */
  ignored: string[];
  errors: string[];
  /** Unified paths → the keys as written in the seed 002 file. */
  path: PathFn;
}

type LiteDeployment = AskRouterFile["model_list"][number];
type CapabilityBlock = NonNullable<AskBlockFile["capabilities"]>[string];

const KEY_REF = /^os\.environ\/([A-Za-z_][A-Za-z0-9_]*)$/;
const IGNORED_TOP = ["dashboard", "litellm_settings", "general_settings"] as const;
/** LiteLLM's routing strategies → orchestrate's (usage-based-routing-v2 is the same figure, counted better). */
const STRATEGIES = {
  "simple-shuffle": "weighted",
  "least-busy": "least-busy",
  "latency-based-routing": "latency",
  "usage-based-routing": "usage",
  "usage-based-routing-v2": "usage",
} as const;

interface Origins {
  /** `${capability}/${index in its deployments}` → index in model_list. */
  deployments: Map<string, number>;
  /** `${capability}/${index in its fallbacks}` → [index in router_settings.fallbacks, index in its list]. */
  fallbacks: Map<string, [number, number]>;
}

export function convertAskRouter(file: AskRouterFile, env: Env): AskConverted {
  const ignored: string[] = [];
  const errors: string[] = [];
  const origins: Origins = { deployments: new Map(), fallbacks: new Map() };
  for (const key of IGNORED_TOP) if (file[key] !== undefined) ignored.push(key);
  const capabilities = convertCapabilities(file, origins, ignored, errors, env);
  const router = file.router_settings;
  for (const [key, why] of Object.entries(REFUSED_ROUTER)) if (router && Object.hasOwn(router, key)) ignored.push(`router_settings.${key} (${why})`);
  if (router?.retry_after !== undefined)
    ignored.push("router_settings.retry_after (a provider's own retry-after is always honoured; there is no floor to set)");
  const ask: AskBlockFile = {
    capabilities,
    ...(router?.num_retries !== undefined ? { retries: router.num_retries } : {}),
    // LiteLLM takes fractions of a second; orchestrate's cooldowns are whole seconds, rounded up so none is shortened.
    ...(router?.cooldown_time !== undefined ? { cooldownSec: Math.ceil(router.cooldown_time) } : {}),
    ...(router?.allowed_fails !== undefined ? { allowedFails: router.allowed_fails } : {}),
    ...(file.limits ? { limits: convertLimits(file.limits) } : {}),
  };
  const consult = file.consult ? convertOrchestrator({ consult: file.consult }, env) : undefined;
  if (consult) {
    ignored.push(...consult.ignored);
    errors.push(...consult.errors);
  }
  return { file: { ...(consult?.file ?? {}), ask }, ignored, errors, path: askRouterPath(origins) };
}

function convertCapabilities(file: AskRouterFile, origins: Origins, ignored: string[], errors: string[], env: Env): Record<string, CapabilityBlock> {
  const declared = Object.keys(file.capabilities);
  const grouped = new Map<string, { entry: LiteDeployment; i: number }[]>(declared.map((name) => [name, []]));
  file.model_list.forEach((entry, i) => {
    const group = grouped.get(entry.model_name);
    if (group) group.push({ entry, i });
    else
      errors.push(
        errorLine(
          `model_list[${i}].model_name`,
          `routes to ${JSON.stringify(entry.model_name)}, which is not a declared capability`,
          `declare it under capabilities:, or use one of: ${declared.join(", ") || "(none declared)"}`,
        ),
      );
  });
  const routing = file.router_settings?.routing_strategy;
  const strategy = routing !== undefined ? STRATEGIES[routing] : undefined;
  const routerTimeout = file.router_settings?.timeout;
  const out: Record<string, CapabilityBlock> = {};
  for (const [name, members] of grouped) {
    if (members.length === 0) {
      // Reported here, in this file's words; left out so resolve-ask.ts does not report it again.
      errors.push(
        errorLine(
          joinPath(["capabilities", name]),
          "no model_list entry serves this capability",
          `add a model_list entry with model_name: ${name}, or remove the capability`,
        ),
      );
      continue;
    }
    // LiteLLM tries lower `order` first; entries without one come after, in the order written.
    const sorted = [...members].sort((a, b) => (a.entry.litellm_params.order ?? Infinity) - (b.entry.litellm_params.order ?? Infinity));
    const deployments: AskDeploymentFile[] = [];
    sorted.forEach(({ entry, i }, j) => {
      origins.deployments.set(`${name}/${j}`, i);
      deployments.push(convertDeployment(entry, i, routerTimeout, ignored, errors, env));
    });
    const weighted = sorted.some(({ entry }) => entry.litellm_params.weight !== undefined);
    out[name] = { description: file.capabilities[name] ?? "", deployments, strategy: strategy ?? (weighted ? "weighted" : "ordered") };
  }
  addFallbacks(file, out, origins, errors, "fallbacks");
  addFallbacks(file, out, origins, errors, "context_window_fallbacks");
  return out;
}

/**
 * LiteLLM's provider base-URL variables, which it reads for a deployment that names no api_base
 * (its anthropic and openai providers): a seed 002 config written for them reaches the same server.
 */
const BASE_URL_ENV: Record<string, readonly string[]> = {
  anthropic: ["ANTHROPIC_API_BASE", "ANTHROPIC_BASE_URL"],
  openai: ["OPENAI_API_BASE", "OPENAI_BASE_URL"],
};

/**
 * Where a deployment's base URL comes from, kept as a reference where LiteLLM reads a variable:
 * `api_base: os.environ/NAME`, or no api_base and the provider's variable set. Resolution reads
 * the variable (config/ask/resolve.ts), so loading the file behaves as LiteLLM does, and an import
 * writes the variable's name, not the URL the importing shell had.
 */
function baseUrlOf(p: LiteDeployment["litellm_params"], env: Env): { baseUrl: string } | { baseUrlEnv: string } | undefined {
  if (p.api_base !== undefined) {
    const named = KEY_REF.exec(p.api_base)?.[1];
    return named !== undefined ? { baseUrlEnv: named } : { baseUrl: p.api_base };
  }
  const names = BASE_URL_ENV[p.model.split("/")[0] ?? ""] ?? [];
  const set = names.find((name) => env[name] !== undefined && env[name] !== "");
  return set !== undefined ? { baseUrlEnv: set } : undefined;
}

/** An inline key is an error here and the deployment is kept without it, so nothing else reports it missing. */
function convertDeployment(
  entry: LiteDeployment,
  i: number,
  routerTimeout: number | undefined,
  ignored: string[],
  errors: string[],
  env: Env,
): AskDeploymentFile {
  const p = entry.litellm_params;
  const baseUrl = baseUrlOf(p, env);
  for (const [key, why] of Object.entries(REFUSED_PARAMS)) if (Object.hasOwn(p, key)) ignored.push(`model_list[${i}].litellm_params.${key} (${why})`);
  const timeout = p.timeout ?? routerTimeout;
  let apiKeyEnv: string | undefined;
  if (p.api_key !== undefined) {
    apiKeyEnv = KEY_REF.exec(p.api_key)?.[1];
    if (apiKeyEnv === undefined) {
      // Never repeated: this is the one place a pasted key could be quoted back.
      errors.push(
        errorLine(
          `model_list[${i}].litellm_params.api_key`,
          "holds a value, not a reference (the value is not repeated here)",
          "write os.environ/NAME and put the key in the MCP client's env; remove api_key for a server that needs none",
        ),
      );
    }
  }
  const perM = (perToken: number | undefined) => (perToken === undefined ? undefined : perToken * 1_000_000);
  const input = perM(p.input_cost_per_token);
  const output = perM(p.output_cost_per_token);
  return {
    model: p.model,
    ...(entry.model_info?.id !== undefined ? { id: entry.model_info.id } : {}),
    ...baseUrl,
    ...(apiKeyEnv !== undefined ? { apiKeyEnv } : {}),
    ...(p.weight !== undefined ? { weight: p.weight } : {}),
    ...(input !== undefined ? { inputCostPerMTok: input } : {}),
    ...(output !== undefined ? { outputCostPerMTok: output } : {}),
    ...(p.api_version !== undefined ? { apiVersion: p.api_version } : {}),
    ...(p.temperature !== undefined ? { temperature: p.temperature } : {}),
    ...(p.top_p !== undefined ? { topP: p.top_p } : {}),
    ...(p.stop !== undefined ? { stop: p.stop } : {}),
    ...(p.seed !== undefined ? { seed: p.seed } : {}),
    ...(p.presence_penalty !== undefined ? { presencePenalty: p.presence_penalty } : {}),
    ...(p.frequency_penalty !== undefined ? { frequencyPenalty: p.frequency_penalty } : {}),
    ...(p.max_tokens !== undefined ? { maxOutputTokens: p.max_tokens } : {}),
    ...(timeout !== undefined ? { timeoutSec: timeout } : {}),
    ...(p.stream_timeout !== undefined ? { streamTimeoutSec: p.stream_timeout } : {}),
    ...(p.max_retries !== undefined ? { maxRetries: p.max_retries } : {}),
    ...(p.rpm !== undefined ? { rpm: p.rpm } : {}),
    ...(p.tpm !== undefined ? { tpm: p.tpm } : {}),
  };
}

/** `fallbacks: [{coding: [fast]}]` → coding.fallbacks = [fast] (context_window_fallbacks alike); targets are checked in resolve.ts. */
function addFallbacks(
  file: AskRouterFile,
  capabilities: Record<string, CapabilityBlock>,
  origins: Origins,
  errors: string[],
  key: "fallbacks" | "context_window_fallbacks",
): void {
  const field = key === "fallbacks" ? "fallbacks" : "contextFallbacks";
  (file.router_settings?.[key] ?? []).forEach((entry, k) => {
    for (const [from, targets] of Object.entries(entry)) {
      const cap = capabilities[from];
      if (!cap) {
        errors.push(
          errorLine(
            joinPath(["router_settings", key, k, from]),
            `falls back from ${JSON.stringify(from)}, which is not a capability`,
            `use one of: ${Object.keys(capabilities).join(", ") || "(none declared)"}`,
          ),
        );
        continue;
      }
      const list = (cap[field] ??= []);
      targets.forEach((target, m) => {
        origins.fallbacks.set(`${field}:${from}/${list.length}`, [k, m]);
        list.push(target);
      });
    }
  });
}

/** Seed 002's limit names → the unified ones (LIMIT_NAMES maps the same pairs back for error paths). */
function convertLimits(l: NonNullable<AskRouterFile["limits"]>): NonNullable<AskBlockFile["limits"]> {
  return {
    ...(l.request_timeout_s !== undefined ? { requestTimeoutSec: l.request_timeout_s } : {}),
    ...(l.max_prompt_chars !== undefined ? { maxPromptChars: l.max_prompt_chars } : {}),
    ...(l.max_system_chars !== undefined ? { maxSystemChars: l.max_system_chars } : {}),
    ...(l.max_context_chars !== undefined ? { maxContextChars: l.max_context_chars } : {}),
    ...(l.max_schema_chars !== undefined ? { maxSchemaChars: l.max_schema_chars } : {}),
    ...(l.max_output_tokens !== undefined ? { maxOutputTokens: l.max_output_tokens } : {}),
    ...(l.schema_repair_attempts !== undefined ? { schemaRepairAttempts: l.schema_repair_attempts } : {}),
  };
}

/** The seed 002 names of unified deployment keys. */
const DEPLOYMENT_KEYS: Record<string, readonly string[]> = {
  model: ["litellm_params", "model"],
  baseUrl: ["litellm_params", "api_base"],
  baseUrlEnv: ["litellm_params", "api_base"],
  apiKeyEnv: ["litellm_params", "api_key"],
  weight: ["litellm_params", "weight"],
  apiVersion: ["litellm_params", "api_version"],
  maxOutputTokens: ["litellm_params", "max_tokens"],
  timeoutSec: ["litellm_params", "timeout"],
  streamTimeoutSec: ["litellm_params", "stream_timeout"],
  maxRetries: ["litellm_params", "max_retries"],
  topP: ["litellm_params", "top_p"],
  presencePenalty: ["litellm_params", "presence_penalty"],
  frequencyPenalty: ["litellm_params", "frequency_penalty"],
  id: ["model_info", "id"],
};

function askRouterPath(origins: Origins): PathFn {
  const limitName = new Map<string, string>(Object.entries(LIMIT_NAMES).map(([from, to]) => [to, from]));
  return (parts) => {
    if (parts[0] !== "ask") return orchestratorPath(parts);
    const [, section, name, sub, index, key] = parts;
    if (section === "limits") return joinPath(["limits", limitName.get(String(name)) ?? String(name)]);
    if (section === "retries") return "router_settings.num_retries";
    if (section === "cooldownSec") return "router_settings.cooldown_time";
    if (section === "allowedFails") return "router_settings.allowed_fails";
    const at = `${String(name)}/${String(index)}`;
    const deployment = sub === "deployments" ? origins.deployments.get(at) : undefined;
    if (deployment !== undefined)
      return joinPath(["model_list", deployment, ...(key !== undefined ? (DEPLOYMENT_KEYS[String(key)] ?? ["litellm_params", key]) : [])]);
    const fallback = sub === "fallbacks" || sub === "contextFallbacks" ? origins.fallbacks.get(`${String(sub)}:${at}`) : undefined;
    if (fallback !== undefined)
      return joinPath(["router_settings", sub === "fallbacks" ? "fallbacks" : "context_window_fallbacks", fallback[0], String(name), fallback[1]]);
    return joinPath(["capabilities", ...(name !== undefined ? [name] : [])]);
  };
}
