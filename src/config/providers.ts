/**
 * Provider derivation (SPEC §2). The provider decides whether a fallback crosses providers, so it
 * is derived, never trusted from the file: a declared provider that disagrees is an error.
 */
import type { Backend } from "../adapters/types.ts";

const FIXED: Partial<Record<Backend, string>> = {
  codex: "openai",
  claude: "anthropic",
  grok: "xai",
  gemini: "google",
  copilot: "github",
};

/** Model prefixes that resell other vendors' models: always cross-provider. */
export const AGGREGATOR_PREFIXES: readonly string[] = ["openrouter", "github-copilot"];

/**
 * `<provider>/<model>`: whatever precedes the first slash is the provider. Deliberately loose:
 * opencode accepts custom provider ids, and seed 000's example (`<provider>/<model>`) must load as is.
 */
const OPENCODE_MODEL = /^([^\s/]+)\/(\S+)$/;

export function opencodePrefix(model: string): string | undefined {
  return OPENCODE_MODEL.exec(model)?.[1];
}

export interface DerivedProvider {
  provider: string;
  aggregator: boolean;
}

/** undefined when it cannot be derived (opencode without a `<provider>/` prefix). */
export function deriveProvider(backend: Backend, model: string | undefined): DerivedProvider | undefined {
  const fixed = FIXED[backend];
  if (fixed) return { provider: fixed, aggregator: false };
  const prefix = model === undefined ? undefined : opencodePrefix(model);
  if (!prefix) return undefined;
  return { provider: prefix, aggregator: AGGREGATOR_PREFIXES.includes(prefix) };
}
