import { type } from "arktype";
import { costEstimate, errorInfo, jobRef, tier, usage } from "../shared.ts";

/** Prompts are large (diffs, files); the cap keeps a hostile request from exhausting memory. */
const prompt = type("0 < string <= 1000000");
const cwd = type("0 < string <= 4096");
const caps = type("(0 < string <= 64)[] <= 16");
const timeoutSec = type("30 <= number.integer <= 3600");

/** Per-call guards; each narrows the agent's own limit, never widens it. */
export const callLimits = type({
  "+": "reject",
  "maxTokens?": "1 <= number.integer <= 100000000",
  "maxCostUsd?": "0 < number <= 10000",
  "maxTurns?": "1 <= number.integer <= 10000",
  "stallSec?": "1 <= number <= 3600",
});

export const routeInput = type({
  "+": "reject",
  prompt,
  cwd,
  tier,
  "caps?": caps,
  "timeoutSec?": timeoutSec,
  "limits?": callLimits,
  "background?": "boolean",
});

const identityVerdict = type("'verified' | 'unverified' | 'mismatch'");

const attempt = type({
  n: "number",
  agent: "string",
  tier,
  backend: "string",
  "model?": "string",
  provider: "string",
  outcome: "string",
  reason: "string",
  durationMs: "number",
  "exitCode?": "number | null",
  fellBack: "boolean",
  "treeChanged?": "boolean | null",
  "modelVerification?": identityVerdict,
  "modelsReported?": "string[]",
  "refusals?": type({ tool: "string", "detail?": "string", "message?": "string" }).array(),
});

export const routeOutput = type({
  ok: "boolean",
  "runId?": "string",
  "servedBy?": {
    agent: "string",
    backend: "string",
    "model?": "string",
    tier,
    provider: "string",
    "modelVerification?": identityVerdict,
    "configuredModel?": "string",
  },
  "modelNotice?": "string",
  "refusalNotice?": "string",
  "storeNotice?": "string",
  "text?": "string",
  attempts: attempt.array(),
  "crossProviderNotice?": "string",
  "usage?": usage,
  "costNotice?": "string",
  "quotaNotice?": "string",
  "sessionId?": "string",
  "advisory?": { hint: "string" },
  "job?": jobRef,
  "error?": errorInfo,
});

export const listTiersInput = type({ "+": "reject" });

export const listTiersOutput = type({
  ok: "boolean",
  tiers: { light: "boolean", standard: "boolean", heavy: "boolean" },
  capabilities: "string[]",
  cooling: "string[]",
  installed: "string[]",
  /** Per tier, each entry's reported quota still in force ("warning: 5h 95 % used, resets …"); no entry is named. */
  "quota?": { "light?": "string[]", "standard?": "string[]", "heavy?": "string[]" },
  "error?": errorInfo,
});

export const dryRunInput = type({
  "+": "reject",
  cwd,
  tier,
  /** The prompt a route would send: its estimate counts it (nothing is sent). */
  "prompt?": prompt,
  "caps?": caps,
  "timeoutSec?": timeoutSec,
});

export const dryRunOutput = type({
  ok: "boolean",
  recipients: type({
    n: "number",
    agent: "string",
    tier,
    backend: "string",
    "model?": "string",
    provider: "string",
    advisory: "boolean",
    crossesProvider: "boolean",
    budgetSec: "number",
    "cost?": costEstimate,
  }).array(),
  decisions: type({ agent: "string", tier, decision: "'include' | 'skip'", reason: "string" }).array(),
  crossings: "string[]",
  budget: { totalSec: "number", reserveSec: "number", perAttemptSec: "number[]" },
  "error?": errorInfo,
});
