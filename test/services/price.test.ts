/**
 * Prices and estimates (docs/cost.md): the bundled catalog's figures for two models, worked out
 * by hand here; the config's prices: over the catalog's; an unknown model is unknown, never $0.
 */
import { describe, expect, test } from "bun:test";
import { zeroConfig } from "../../src/config/defaults.ts";
import { costOfUsage } from "../../src/config/prices.ts";
import type { Config } from "../../src/config/types.ts";
import { agentEstimate, estimateCost, priceOf, sumEstimates } from "../../src/services/shared/price.ts";

const config = (prices?: Config["prices"]): Config => ({ ...zeroConfig(), ...(prices ? { prices } : {}) });
const agent = (model: string, maxTokens?: number) => ({ model, provider: "unknown", limits: maxTokens === undefined ? {} : { maxTokens } });

describe("estimates before sending", () => {
  test("claude-sonnet-4-6 at the catalog's $3 in / $15 out per million: 4000 characters and a 2000-token output bound", async () => {
    // 4000 chars / 4 = 1000 tokens in; the agent's maxTokens 3000 leaves 2000 for output.
    // low = 1000 × 3 / 1e6 = $0.003; high = 0.003 + 2000 × 15 / 1e6 = $0.033.
    const e = await agentEstimate(config(), agent("claude-sonnet-4-6", 3000), 4000);
    expect(e).toMatchObject({ estimate: true, method: "chars/4", inputTokens: 1000, maxOutputTokens: 2000, outputBound: "limit", price: "catalog" });
    expect(e.usdLow).toBeCloseTo(0.003, 10);
    expect(e.usdHigh).toBeCloseTo(0.033, 10);
  });

  test("gemini-2.5-flash at $0.30 in / $2.50 out, no limit: output bounded by the typical 8000 tokens", async () => {
    // 10 001 chars → 2501 tokens; low = 2501 × 0.3 / 1e6 = $0.0007503; high = low + 8000 × 2.5 / 1e6 = $0.0207503.
    const e = await agentEstimate(config(), agent("gemini-2.5-flash"), 10_001);
    expect(e).toMatchObject({ inputTokens: 2501, maxOutputTokens: 8000, outputBound: "typical", price: "catalog" });
    expect(e.usdLow).toBeCloseTo(0.0007503, 10);
    expect(e.usdHigh).toBeCloseTo(0.0207503, 10);
  });

  test("an opencode provider/model id is priced as its model", async () => {
    const e = await agentEstimate(config(), agent("google/gemini-2.5-flash"), 4);
    expect(e.usdLow).toBeCloseTo(0.3 / 1e6, 12);
  });

  test("a model the catalog does not know is unknown, never $0", async () => {
    const e = await agentEstimate(config(), agent("no-such-model-7"), 400);
    expect(e.price).toBe("unknown");
    expect(e.usdLow).toBeUndefined();
    expect(e.usdHigh).toBeUndefined();
    expect(sumEstimates([e, estimateCost({ price: { inputPerMTok: 1, outputPerMTok: 1 }, source: "config" }, 4)])).toEqual({ price: "unknown" });
  });

  test("the config's prices: win over the catalog's", async () => {
    const own = config({ "claude-sonnet-4-6": { inputPerMTok: 1, outputPerMTok: 2 } });
    expect(await priceOf(own, "claude-sonnet-4-6")).toEqual({ price: { inputPerMTok: 1, outputPerMTok: 2 }, source: "config" });
    const e = await agentEstimate(own, agent("claude-sonnet-4-6", 3000), 4000);
    expect(e.price).toBe("config");
    expect(e.usdHigh).toBeCloseTo((1000 * 1 + 2000 * 2) / 1e6, 12);
  });

  test("a plan's total is the sum of its recipients", async () => {
    const a = await agentEstimate(config(), agent("claude-sonnet-4-6", 3000), 4000);
    const b = await agentEstimate(config(), agent("gemini-2.5-flash"), 10_001);
    const total = sumEstimates([a, b]);
    expect(total.usdLow).toBeCloseTo(0.003 + 0.0007503, 10);
    expect(total.usdHigh).toBeCloseTo(0.033 + 0.0207503, 10);
  });
});

describe("costs after", () => {
  test("codex's usage at gpt-5.5's $5 in / $0.50 cached / $30 out: cached tokens are part of the input count", async () => {
    const quote = await priceOf(config(), "gpt-5.5");
    if (!quote) throw new Error("gpt-5.5 has no catalog price");
    // 1000 in of which 400 cached, 100 out: 600 × 5 + 400 × 0.5 + 100 × 30 = 6200 µ$ = $0.0062.
    expect(costOfUsage(quote.price, { inputTokens: 1000, cachedInputTokens: 400, outputTokens: 100 })).toBeCloseTo(0.0062, 10);
    expect(costOfUsage(quote.price, { turns: 1 })).toBeUndefined();
  });
});
