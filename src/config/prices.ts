/**
 * A model's price and the arithmetic on it, pure. The figures come from the config's `prices:`
 * (a private or discounted rate) or from the bundled catalog (src/services/shared/price.ts);
 * either way a cost computed here is the API-equivalent of the tokens, not a bill (docs/cost.md).
 */
import type { Usage } from "../backends/contract.ts";

/** USD per million tokens. A cached input token costs `cachedInputPerMTok`, else the input rate. */
export interface ModelPrice {
  inputPerMTok: number;
  outputPerMTok: number;
  cachedInputPerMTok?: number;
}

const PER_TOKEN = 1 / 1_000_000;

/**
 * The cost of what a run reported. `inputTokens` counts cached tokens too (the OpenAI convention
 * codex reports in); a cached count above it is read as reported beside it instead, so neither
 * convention prices a token twice or drops one.
 */
export function costOfUsage(price: ModelPrice, usage: Usage): number | undefined {
  if (usage.inputTokens === undefined && usage.outputTokens === undefined) return undefined;
  const cached = usage.cachedInputTokens ?? 0;
  const input = usage.inputTokens ?? 0;
  const uncached = cached > input ? input : input - cached;
  const cachedRate = price.cachedInputPerMTok ?? price.inputPerMTok;
  return (uncached * price.inputPerMTok + cached * cachedRate + (usage.outputTokens ?? 0) * price.outputPerMTok) * PER_TOKEN;
}

/** The range a call may cost: its input alone, up to its input plus every output token it may write. */
export function costRange(price: ModelPrice, inputTokens: number, maxOutputTokens: number): { lowUsd: number; highUsd: number } {
  const input = inputTokens * price.inputPerMTok * PER_TOKEN;
  return { lowUsd: input, highUsd: input + maxOutputTokens * price.outputPerMTok * PER_TOKEN };
}

/** How a prompt's tokens are counted before sending: no tokenizer ships with the catalog, so four characters a token. */
export const TOKEN_METHOD = "chars/4";

export function tokensOfText(chars: number): number {
  return Math.ceil(chars / 4);
}
