/**
 * Provider derivation. The provider decides whether a fallback crosses providers, so it
 * is derived from the backend's rule, never trusted from the file: a declared provider that
 * disagrees is an error. Only a backend whose rule is `declared` (pi) takes the declaration.
 */
import type { ProviderRule } from "../backends/contract.ts";

/** Model prefixes that resell other vendors' models: always cross-provider. */
export const AGGREGATOR_PREFIXES: readonly string[] = ["openrouter", "github-copilot"];

/**
 * `<provider>/<model>`: whatever precedes the first slash is the provider. Deliberately loose:
 * opencode accepts custom provider ids, and seed 000's example (`<provider>/<model>`) must load as is.
 */
const PREFIXED_MODEL = /^([^\s/]+)\/(\S+)$/;

export function modelPrefix(model: string): string | undefined {
  return PREFIXED_MODEL.exec(model)?.[1];
}

export interface DerivedProvider {
  provider: string;
  aggregator: boolean;
}

/** undefined when it cannot be derived (a prefix rule without a prefix; a declared rule without a declaration). */
export function deriveProvider(rule: ProviderRule, model: string | undefined, declared: string | undefined): DerivedProvider | undefined {
  if (rule.kind === "fixed") return { provider: rule.provider, aggregator: false };
  const provider = rule.kind === "declared" ? declared : model === undefined ? undefined : modelPrefix(model);
  if (!provider) return undefined;
  return { provider, aggregator: AGGREGATOR_PREFIXES.includes(provider) };
}
