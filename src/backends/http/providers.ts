/**
 * Which endpoint a deployment's model id names. Ids are written as LiteLLM writes them —
 * `<provider>/<model>` (seed 002: `anthropic/claude-sonnet-4-5`, `openai/qwen-coder` with an
 * api_base, `ollama_chat/qwen2.5:7b`) — and the prefix picks the wire format, the default base
 * URL and the environment variable a key is read from when none is named.
 *
 * A default key variable applies only at the provider's own default base URL: `openai/…` pointed
 * at your vLLM box must never be sent OPENAI_API_KEY because that happens to be set.
 */
import type { Endpoint, WireFormat } from "./types.ts";

interface Provider {
  wire: WireFormat;
  /** Absent: the deployment must give its base URL (self-hosted servers, proxies). */
  base?: string;
  keyEnv?: string;
  /** Ollama serves the OpenAI format under /v1 of its root URL, which is what people write. */
  appendV1?: boolean;
  extraBody?: Record<string, unknown>;
  note?: string;
  /** Azure OpenAI: the model id is the deployment name, in the path, with an api-version query and an api-key header. */
  azure?: true;
}

const OPENAI_COMPATIBLE: Record<string, Provider> = {
  openai: { wire: "openai", base: "https://api.openai.com/v1", keyEnv: "OPENAI_API_KEY", note: "any OpenAI-compatible server, with a base URL" },
  openrouter: { wire: "openai", base: "https://openrouter.ai/api/v1", keyEnv: "OPENROUTER_API_KEY", extraBody: { usage: { include: true } } },
  ollama: { wire: "openai", base: "http://localhost:11434", appendV1: true },
  ollama_chat: { wire: "openai", base: "http://localhost:11434", appendV1: true },
  hosted_vllm: { wire: "openai" },
  lm_studio: { wire: "openai", base: "http://localhost:1234/v1" },
  litellm_proxy: { wire: "openai", keyEnv: "LITELLM_PROXY_API_KEY" },
  groq: { wire: "openai", base: "https://api.groq.com/openai/v1", keyEnv: "GROQ_API_KEY" },
  deepseek: { wire: "openai", base: "https://api.deepseek.com/v1", keyEnv: "DEEPSEEK_API_KEY" },
  xai: { wire: "openai", base: "https://api.x.ai/v1", keyEnv: "XAI_API_KEY" },
  mistral: { wire: "openai", base: "https://api.mistral.ai/v1", keyEnv: "MISTRAL_API_KEY" },
  together_ai: { wire: "openai", base: "https://api.together.xyz/v1", keyEnv: "TOGETHERAI_API_KEY" },
  fireworks_ai: { wire: "openai", base: "https://api.fireworks.ai/inference/v1", keyEnv: "FIREWORKS_API_KEY" },
  gemini: { wire: "openai", base: "https://generativelanguage.googleapis.com/v1beta/openai", keyEnv: "GEMINI_API_KEY" },
};

const PROVIDERS: Record<string, Provider> = {
  ...OPENAI_COMPATIBLE,
  anthropic: { wire: "anthropic", base: "https://api.anthropic.com", keyEnv: "ANTHROPIC_API_KEY" },
  // LiteLLM's azure/<deployment>: the resource's base URL is always the deployment's own.
  azure: { wire: "openai", keyEnv: "AZURE_API_KEY", azure: true },
};

export const PROVIDER_PREFIXES: readonly string[] = Object.keys(PROVIDERS);

export interface ResolvedEndpoint {
  endpoint: Endpoint;
  /** The id sent to the endpoint: the model with its provider prefix removed. */
  apiModel: string;
  /** The variable a key is read from when the deployment names none (default base URL only). */
  defaultKeyEnv?: string;
}

export type EndpointResult = { ok: true; value: ResolvedEndpoint } | { ok: false; what: string; fix: string };

/** `<provider>/<model>` plus an optional base URL (and Azure's api-version) → the endpoint, or why not (for a config error line). */
export function resolveEndpoint(model: string, baseUrl?: string, apiVersion?: string): EndpointResult {
  const slash = model.indexOf("/");
  const prefix = slash > 0 ? model.slice(0, slash) : "";
  const apiModel = model.slice(slash + 1);
  const provider = Object.hasOwn(PROVIDERS, prefix) ? PROVIDERS[prefix] : undefined;
  if (!provider || !apiModel) {
    return {
      ok: false,
      what: `${JSON.stringify(model)} names no provider orchestrate speaks to`,
      fix: `write <provider>/<model> with one of: ${PROVIDER_PREFIXES.join(", ")} (openai/<model> with a base URL reaches any OpenAI-compatible server, litellm_proxy/<model> a LiteLLM proxy in front of the rest)`,
    };
  }
  const base = baseUrl ?? provider.base;
  if (base === undefined)
    return { ok: false, what: `${prefix}/… has no default address`, fix: "give the server's base URL (api_base / baseUrl), e.g. http://localhost:8000/v1" };
  const parsed = parseBase(base);
  // Not quoted: a URL with user:password in it is exactly what must not be repeated.
  if (!parsed)
    return {
      ok: false,
      what: "the base URL is not a plain http(s) URL",
      fix: "write scheme, host, port and path only (no user:password, query or fragment), e.g. https://host:8000/v1",
    };
  const atDefault = baseUrl === undefined || trimSlash(baseUrl) === provider.base;
  if (provider.azure) return azureEndpoint(prefix, apiModel, parsed, apiVersion, provider.keyEnv);
  if (apiVersion !== undefined) return { ok: false, what: "api_version is only for azure/<deployment>", fix: "remove api_version" };
  const endpoint: Endpoint = {
    wire: provider.wire,
    url: endpointUrl(provider, parsed),
    provider: prefix,
    tokenField: prefix === "openai" && atDefault ? "max_completion_tokens" : "max_tokens",
    ...(provider.extraBody ? { extraBody: provider.extraBody } : {}),
  };
  return { ok: true, value: { endpoint, apiModel, ...(atDefault && provider.keyEnv ? { defaultKeyEnv: provider.keyEnv } : {}) } };
}

/**
 * Azure OpenAI: POST {base}/openai/deployments/{deployment}/chat/completions?api-version=…, the key
 * in an api-key header. Newer API versions take max_completion_tokens, as OpenAI's own API does.
 */
function azureEndpoint(prefix: string, deployment: string, base: string, apiVersion: string | undefined, keyEnv: string | undefined): EndpointResult {
  if (apiVersion === undefined || !/^\d{4}-\d{2}-\d{2}(-preview)?$/.test(apiVersion)) {
    return {
      ok: false,
      what: apiVersion === undefined ? "azure/… needs its api-version" : `api_version ${JSON.stringify(apiVersion.slice(0, 40))} is not an Azure API version`,
      fix: "add api_version (litellm_params) / apiVersion, e.g. 2024-10-21",
    };
  }
  const root = base.replace(/\/openai$/, "");
  const url = `${root}/openai/deployments/${encodeURIComponent(deployment)}/chat/completions?api-version=${apiVersion}`;
  const tokenField = apiVersion >= "2024-09-01" ? "max_completion_tokens" : "max_tokens";
  return {
    ok: true,
    value: {
      endpoint: { wire: "openai", url, provider: prefix, tokenField, keyHeader: "api-key" },
      apiModel: deployment,
      ...(keyEnv ? { defaultKeyEnv: keyEnv } : {}),
    },
  };
}

function parseBase(base: string): string | undefined {
  try {
    const url = new URL(base);
    if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
    if (url.username || url.password || url.search || url.hash) return undefined;
    return trimSlash(base);
  } catch {
    return undefined;
  }
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, "");
}

function endpointUrl(provider: Provider, base: string): string {
  if (provider.wire === "anthropic") return `${base}${/\/v1$/.test(base) ? "" : "/v1"}/messages`;
  const root = provider.appendV1 && !/\/v1$/.test(base) ? `${base}/v1` : base;
  return `${root}/chat/completions`;
}
