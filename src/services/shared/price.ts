/**
 * The one home of price lookups: the config's `prices:` first, then the bundled catalog
 * (@pydantic/genai-prices, chosen by measurement in docs/cost.md). The catalog is imported on the
 * first lookup only, so a server that never prices anything never loads it, and it is never
 * updated over the network (its `updatePrices` is not called).
 */
import type { Usage } from "../../backends/contract.ts";
import { costOfUsage, costRange, TOKEN_METHOD, tokensOfText, type ModelPrice } from "../../config/prices.ts";
import type { AgentConfig, Config } from "../../config/types.ts";

export type PriceSource = "config" | "catalog";

export interface PriceQuote {
  price: ModelPrice;
  source: PriceSource;
}

/** A cost figured before anything is sent. `usdLow`/`usdHigh` are absent when the model has no price: unknown, never 0. */
export interface CostEstimate {
  estimate: true;
  /** How the input was counted. */
  method: string;
  inputTokens: number;
  maxOutputTokens: number;
  /** Whether the output bound is the call's own limit or orchestrate's typical figure. */
  outputBound: "limit" | "typical";
  price: PriceSource | "unknown";
  usdLow?: number;
  usdHigh?: number;
}

/** The output a call with no limit of its own is assumed to write at most: a long answer or a modest edit (docs/cost.md). */
export const TYPICAL_OUTPUT_TOKENS = 8_000;

/** The tokens a probe prices, small enough to stay under every long-context tier. */
const PROBE = 1_000;

type Catalog = typeof import("@pydantic/genai-prices");

/** The model id the catalog knows: an opencode/OpenRouter `provider/model` is priced as its last segment. */
function catalogId(model: string): string {
  return model.slice(model.lastIndexOf("/") + 1);
}

function catalogPrice(catalog: Catalog, model: string, provider: string | undefined): ModelPrice | undefined {
  const id = catalogId(model);
  const rate = (usage: Record<string, number>): number | undefined => {
    const hinted = provider ? catalog.calcPrice(usage, id, { providerId: provider }) : null;
    const found = hinted ?? catalog.calcPrice(usage, id);
    return found ? (found.total_price * 1_000_000) / PROBE : undefined;
  };
  const input = rate({ input_tokens: PROBE });
  const output = rate({ output_tokens: PROBE });
  if (input === undefined || output === undefined) return undefined;
  const cached = rate({ input_tokens: PROBE, cache_read_tokens: PROBE });
  return { inputPerMTok: input, outputPerMTok: output, ...(cached !== undefined && cached !== input ? { cachedInputPerMTok: cached } : {}) };
}

/** A catalog that fails to load or to answer leaves the price unknown: a cost figure never fails the call it describes. */
async function fromCatalog(model: string, provider: string | undefined): Promise<ModelPrice | undefined> {
  try {
    return catalogPrice(await import("@pydantic/genai-prices"), model, provider);
  } catch {
    return undefined;
  }
}

/** The price of `model` (as the config names it), or undefined: an unknown model is said to be unknown. */
export async function priceOf(config: Config, model: string | undefined, provider?: string): Promise<PriceQuote | undefined> {
  if (!model) return undefined;
  const own = config.prices?.[model] ?? config.prices?.[catalogId(model)];
  if (own) return { price: own, source: "config" };
  const price = await fromCatalog(model, provider);
  return price ? { price, source: "catalog" } : undefined;
}

/** The estimated cost of sending `promptChars` characters, output bounded by `outputLimit` or the typical figure. */
export function estimateCost(quote: PriceQuote | undefined, promptChars: number, outputLimit?: number): CostEstimate {
  const inputTokens = tokensOfText(promptChars);
  const maxOutputTokens = outputLimit ?? TYPICAL_OUTPUT_TOKENS;
  const base = {
    estimate: true as const,
    method: TOKEN_METHOD,
    inputTokens,
    maxOutputTokens,
    outputBound: outputLimit !== undefined ? ("limit" as const) : ("typical" as const),
  };
  if (!quote) return { ...base, price: "unknown" };
  const { lowUsd, highUsd } = costRange(quote.price, inputTokens, maxOutputTokens);
  return { ...base, price: quote.source, usdLow: lowUsd, usdHigh: highUsd };
}

/**
 * What one turn of a CLI agent may cost: the prompt counted as tokens, output bounded by what the
 * agent's maxTokens leaves after the prompt, else the typical figure. A coding CLI adds its own
 * system prompt and the files it reads, so its real input is larger (docs/cost.md).
 */
export async function agentEstimate(config: Config, agent: Pick<AgentConfig, "model" | "provider" | "limits">, promptChars: number): Promise<CostEstimate> {
  const quote = await priceOf(config, agent.model, agent.provider);
  const max = agent.limits.maxTokens;
  return estimateCost(quote, promptChars, max === undefined ? undefined : Math.max(0, max - tokensOfText(promptChars)));
}

/** The sum of several estimates; unknown as soon as one of them is. */
export function sumEstimates(estimates: readonly CostEstimate[]): { usdLow?: number; usdHigh?: number; price: "known" | "unknown" } {
  if (estimates.some((e) => e.usdLow === undefined || e.usdHigh === undefined)) return { price: "unknown" };
  return { price: "known", usdLow: estimates.reduce((s, e) => s + (e.usdLow ?? 0), 0), usdHigh: estimates.reduce((s, e) => s + (e.usdHigh ?? 0), 0) };
}

/**
 * For a run whose CLI reports tokens but no cost: the cost from the price, for the runner to fill
 * in (marked estimated) and to hold a maxCostUsd against. Loads the catalog only when needed.
 */
export async function costEstimator(config: Config, model: string | undefined, provider?: string): Promise<((usage: Usage) => number | undefined) | undefined> {
  const quote = await priceOf(config, model, provider);
  return quote ? (usage) => costOfUsage(quote.price, usage) : undefined;
}

/** Usage as a reply shows it: an estimated cost says so. */
export type ShownUsage = Usage & { costEstimated?: boolean };

export function shownUsage(run: { usage: Usage; costEstimated?: boolean }): ShownUsage {
  return run.costEstimated ? { ...run.usage, costEstimated: true } : run.usage;
}

/** "~$0.0012–$0.0852 (estimate: 300 tokens in by chars/4, ≤ 8000 out typical; catalog price)", or unknown. */
export function estimateLine(e: CostEstimate): string {
  const bound = `${e.inputTokens} tokens in by ${e.method}, ≤ ${e.maxOutputTokens} out (${e.outputBound === "limit" ? "the limit" : "typical"})`;
  if (e.usdLow === undefined || e.usdHigh === undefined) return `cost unknown (no price for this model; ${bound})`;
  return `~$${e.usdLow.toFixed(4)}–$${e.usdHigh.toFixed(4)} (estimate: ${bound}; ${e.price} price)`;
}

/** A plan's total in words: the sum of its recipients' ranges, or unknown when one has no price. */
export function totalLine(total: { usdLow?: number; usdHigh?: number }): string {
  return total.usdLow === undefined || total.usdHigh === undefined
    ? "unknown (a recipient's model has no price)"
    : `~$${total.usdLow.toFixed(4)}–$${total.usdHigh.toFixed(4)} (estimate)`;
}
