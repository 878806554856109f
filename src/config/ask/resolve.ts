/**
 * The unified file's `ask:` block → AskConfig, with seed 002's startup checks: every capability
 * has a deployment, every deployment names a provider orchestrate speaks to, every fallback names
 * a real capability (not itself), and a key is only ever an environment variable's name.
 * (Every deployment routing to a declared capability is structural here; seed 002 files are
 * checked for it while they are converted, in legacy-ask.ts.)
 */
import { resolveEndpoint } from "../../backends/http/providers.ts";
import type { Sampling, WireFormat } from "../../backends/http/types.ts";
import { emptyAsk, ASK_DEFAULTS } from "../defaults.ts";
import { errorLine } from "../format-errors.ts";
import { placeholderProblem } from "../placeholder.ts";
import { NAME, type PathFn } from "../resolve-agent.ts";
import type { AskBlockFile, AskDeploymentFile } from "../schema.ts";
import type { Env } from "../paths.ts";
import type { AskCapability, AskConfig, AskDeployment } from "../types.ts";

export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

type CapabilityFile = NonNullable<AskBlockFile["capabilities"]>[string];

export function resolveAsk(block: AskBlockFile | undefined, path: PathFn, errors: string[], env: Env): AskConfig {
  if (!block) return emptyAsk();
  const capabilities: Record<string, AskCapability> = {};
  const declared = Object.keys(block.capabilities ?? {});
  for (const [name, cap] of Object.entries(block.capabilities ?? {})) {
    const resolved = resolveCapability(name, cap, declared, { path, errors, env });
    if (resolved) capabilities[name] = resolved;
  }
  return {
    capabilities,
    retries: block.retries ?? ASK_DEFAULTS.retries,
    cooldownSec: block.cooldownSec ?? ASK_DEFAULTS.cooldownSec,
    allowedFails: block.allowedFails ?? ASK_DEFAULTS.allowedFails,
    limits: { ...ASK_DEFAULTS.limits, ...(block.limits ?? {}) },
  };
}

interface AskCtx {
  path: PathFn;
  errors: string[];
  env: Env;
}

function resolveCapability(name: string, cap: CapabilityFile, declared: readonly string[], ctx: AskCtx): AskCapability | undefined {
  const { path, errors } = ctx;
  const at = ["ask", "capabilities", name];
  if (!NAME.test(name)) {
    errors.push(errorLine(path(at), `${JSON.stringify(name)} is not a valid capability name`, "use at most 64 letters, digits, _, . or -"));
    return undefined;
  }
  if (cap.deployments.length === 0)
    errors.push(
      errorLine(
        path([...at, "deployments"]),
        "no deployment serves this capability",
        "add a deployment (a model with its key's variable), or remove the capability",
      ),
    );
  const deployments: AskDeployment[] = [];
  cap.deployments.forEach((entry, i) => {
    const deployment = resolveDeployment(entry, [...at, "deployments", i], deployments, ctx);
    if (deployment) deployments.push(deployment);
  });
  const fallbacks = resolveFallbacks(name, cap.fallbacks ?? [], declared, [...at, "fallbacks"], path, errors);
  const contextFallbacks = resolveFallbacks(name, cap.contextFallbacks ?? [], declared, [...at, "contextFallbacks"], path, errors);
  return { name, description: cap.description ?? "", strategy: cap.strategy ?? "ordered", deployments, fallbacks, contextFallbacks };
}

function resolveDeployment(entry: AskDeploymentFile, at: readonly PropertyKey[], earlier: readonly AskDeployment[], ctx: AskCtx): AskDeployment | undefined {
  const { path, errors } = ctx;
  const baseUrl = baseUrlOf(entry, at, ctx);
  if (baseUrl === null) return undefined;
  const modelPlaceholder = placeholderProblem(entry.model, "the provider/model id the deployment serves");
  const urlPlaceholder = placeholderProblem(baseUrl, "the server's URL");
  if (modelPlaceholder) errors.push(errorLine(path([...at, "model"]), modelPlaceholder.what, modelPlaceholder.fix));
  if (urlPlaceholder) errors.push(errorLine(path([...at, "baseUrl"]), urlPlaceholder.what, urlPlaceholder.fix));
  if (modelPlaceholder || urlPlaceholder) return undefined;
  const endpoint = resolveEndpoint(entry.model, baseUrl, entry.apiVersion);
  if (!endpoint.ok) {
    const key =
      endpoint.what.includes("api-version") || endpoint.what.includes("api_version")
        ? "apiVersion"
        : baseUrl !== undefined && endpoint.what.includes("URL")
          ? entry.baseUrlEnv !== undefined
            ? "baseUrlEnv"
            : "baseUrl"
          : "model";
    errors.push(errorLine(path([...at, key]), endpoint.what, endpoint.fix));
    return undefined;
  }
  const unsent = unsentSampling(entry, endpoint.value.endpoint.wire);
  if (unsent) {
    errors.push(
      errorLine(
        path([...at, unsent]),
        `${endpoint.value.endpoint.provider} (Anthropic's messages API) has no ${unsent}`,
        `remove ${unsent} from this deployment`,
      ),
    );
    return undefined;
  }
  // Never quote the value: a key pasted where its variable's name belongs must not reach a log.
  if (entry.apiKeyEnv !== undefined && !ENV_NAME.test(entry.apiKeyEnv)) {
    errors.push(
      errorLine(
        path([...at, "apiKeyEnv"]),
        "is not an environment variable name (the value is not repeated here)",
        "write the NAME of the variable that holds the key, e.g. ANTHROPIC_API_KEY, and put the key in the MCP client's env",
      ),
    );
    return undefined;
  }
  const id = entry.id ?? uniqueId(entry.model, earlier);
  if (earlier.some((d) => d.id === id)) {
    errors.push(errorLine(path([...at, "id"]), `${JSON.stringify(id)} is used by another deployment of this capability`, "give each deployment its own id"));
    return undefined;
  }
  const keyEnv = entry.apiKeyEnv ?? endpoint.value.defaultKeyEnv;
  const pricing =
    entry.inputCostPerMTok !== undefined || entry.outputCostPerMTok !== undefined
      ? { inputPerMTok: entry.inputCostPerMTok ?? 0, outputPerMTok: entry.outputCostPerMTok ?? 0 }
      : undefined;
  const sampling = samplingOf(entry);
  return {
    id,
    model: entry.model,
    apiModel: endpoint.value.apiModel,
    endpoint: endpoint.value.endpoint,
    ...(keyEnv ? { keyEnv } : {}),
    weight: entry.weight ?? 1,
    ...(pricing ? { pricing } : {}),
    ...(sampling ? { sampling } : {}),
    ...(entry.maxOutputTokens !== undefined ? { maxOutputTokens: entry.maxOutputTokens } : {}),
    ...(entry.timeoutSec !== undefined ? { timeoutMs: entry.timeoutSec * 1000 } : {}),
    ...(entry.streamTimeoutSec !== undefined ? { streamTimeoutMs: entry.streamTimeoutSec * 1000 } : {}),
    ...(entry.maxRetries !== undefined ? { maxRetries: entry.maxRetries } : {}),
    ...(entry.rpm !== undefined ? { rpm: entry.rpm } : {}),
    ...(entry.tpm !== undefined ? { tpm: entry.tpm } : {}),
  };
}

/** The operator's sampling parameters, undefined when none is set. */
function samplingOf(entry: AskDeploymentFile): Sampling | undefined {
  const stop = entry.stop === undefined ? undefined : typeof entry.stop === "string" ? [entry.stop] : [...entry.stop];
  const s: Sampling = {
    ...(entry.temperature !== undefined ? { temperature: entry.temperature } : {}),
    ...(entry.topP !== undefined ? { topP: entry.topP } : {}),
    ...(stop !== undefined ? { stop } : {}),
    ...(entry.seed !== undefined ? { seed: entry.seed } : {}),
    ...(entry.presencePenalty !== undefined ? { presencePenalty: entry.presencePenalty } : {}),
    ...(entry.frequencyPenalty !== undefined ? { frequencyPenalty: entry.frequencyPenalty } : {}),
  };
  return Object.keys(s).length > 0 ? s : undefined;
}

/** A parameter this wire format has no field for: refused rather than dropped, so the operator knows. */
function unsentSampling(entry: AskDeploymentFile, wire: WireFormat): "seed" | "presencePenalty" | "frequencyPenalty" | undefined {
  if (wire !== "anthropic") return undefined;
  if (entry.seed !== undefined) return "seed";
  if (entry.presencePenalty !== undefined) return "presencePenalty";
  return entry.frequencyPenalty !== undefined ? "frequencyPenalty" : undefined;
}

/** Two deployments of one model (two keys, two regions) are `model` and `model.2`. */
function uniqueId(model: string, earlier: readonly AskDeployment[]): string {
  let id = model;
  for (let n = 2; earlier.some((d) => d.id === id); n++) id = `${model}.${n}`;
  return id;
}

function resolveFallbacks(
  name: string,
  fallbacks: readonly string[],
  declared: readonly string[],
  at: readonly PropertyKey[],
  path: PathFn,
  errors: string[],
): string[] {
  const out: string[] = [];
  fallbacks.forEach((target, i) => {
    if (target === name) errors.push(errorLine(path([...at, i]), `${name} falls back to itself`, "remove it from its own fallbacks"));
    else if (!declared.includes(target))
      errors.push(
        errorLine(
          path([...at, i]),
          `names ${JSON.stringify(target)}, which is not a capability`,
          `use one of: ${declared.filter((d) => d !== name).join(", ") || "(no other capability)"}`,
        ),
      );
    else if (out.includes(target)) errors.push(errorLine(path([...at, i]), `${JSON.stringify(target)} is listed twice`, "remove the repeat"));
    else out.push(target);
  });
  return out;
}

/** baseUrl as written, or read from the variable baseUrlEnv names (unset or empty: the provider's own URL); null after an error. */
function baseUrlOf(entry: AskDeploymentFile, at: readonly PropertyKey[], ctx: AskCtx): string | undefined | null {
  if (entry.baseUrlEnv === undefined) return entry.baseUrl;
  const where = ctx.path([...at, "baseUrlEnv"]);
  if (entry.baseUrl !== undefined) {
    ctx.errors.push(errorLine(where, "is set beside baseUrl", "keep one: baseUrl for a fixed URL, baseUrlEnv for the variable that holds it"));
    return null;
  }
  if (!ENV_NAME.test(entry.baseUrlEnv)) {
    ctx.errors.push(errorLine(where, "is not an environment variable's name", "write the NAME of the variable that holds the URL"));
    return null;
  }
  const value = ctx.env[entry.baseUrlEnv];
  return value === undefined || value === "" ? undefined : value;
}
