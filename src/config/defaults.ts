/**
 * Every default of the resolved configuration, in one place. The loader fills whatever a file
 * leaves out from here, and a machine with no config file runs on `zeroConfig()`: every tier
 * unconfigured and no agents, because a model is never invented.
 */
import type { AskConfig, Config, CooldownTtls } from "./types.ts";

/** Cooldown TTLs after an unavailable failure (mcp-orchestrate's 30/10/5 minutes). */
export const DEFAULT_COOLDOWNS: Readonly<CooldownTtls> = Object.freeze({
  authSec: 1800,
  capacitySec: 600,
  transportSec: 300,
  notInstalledSec: 300,
});

export const DEFAULTS = Object.freeze({
  allowCrossProviderFallback: false,
  /** One level of delegation: a delegate may not delegate again. */
  maxDepth: 1,
  /** Orchestrator's consult.timeout_s default, sized for a question. */
  consultTimeoutSec: 180,
  /** route's budget default, seconds; a call may ask for 30–3600 (invalid_timeout outside). */
  timeoutSec: 900,
  stallSec: 300,
  /** A quota window this full is treated as at its warning state, whatever the vendor says (issue 25). */
  quotaWarnPercent: 90,
  storeFullContent: true,
  /** Lower wins a score tie; an agent without a priority loses ties to one that has any usual value. */
  priority: 100,
  enabled: true,
  advisory: false,
  maxTierEntries: 8,
  maxAllowedTools: 32,
});

/**
 * Seed 002's ask defaults. The budget is seed 002's 120 s (the MCP handler also keeps it under the
 * client's own call timeout); one repair turn; the size bounds are generous for a prompt and tight
 * for a schema, which is trusted input (its patterns run in this process).
 */
export const ASK_DEFAULTS: Readonly<Omit<AskConfig, "capabilities">> = Object.freeze({
  retries: 2,
  cooldownSec: 60,
  allowedFails: 0,
  limits: Object.freeze({
    requestTimeoutSec: 120,
    maxPromptChars: 200_000,
    maxSystemChars: 50_000,
    maxContextChars: 1_000_000,
    maxSchemaChars: 50_000,
    maxOutputTokens: 4096,
    schemaRepairAttempts: 1,
  }),
});

export function emptyAsk(): AskConfig {
  return {
    capabilities: {},
    retries: ASK_DEFAULTS.retries,
    cooldownSec: ASK_DEFAULTS.cooldownSec,
    allowedFails: ASK_DEFAULTS.allowedFails,
    limits: { ...ASK_DEFAULTS.limits },
  };
}

/** The configuration of a machine with no config file. */
export function zeroConfig(): Config {
  return {
    source: { format: "none" },
    agents: {},
    tiers: { light: null, standard: null, heavy: null },
    capabilitySlots: {},
    fallbacks: {},
    allowCrossProviderFallback: DEFAULTS.allowCrossProviderFallback,
    roots: [],
    maxDepth: DEFAULTS.maxDepth,
    host: {},
    consult: { timeoutSec: DEFAULTS.consultTimeoutSec },
    store: { fullContent: DEFAULTS.storeFullContent },
    cooldowns: { ...DEFAULT_COOLDOWNS },
    defaults: { timeoutSec: DEFAULTS.timeoutSec, stallSec: DEFAULTS.stallSec, quotaWarnPercent: DEFAULTS.quotaWarnPercent },
    ask: emptyAsk(),
  };
}
