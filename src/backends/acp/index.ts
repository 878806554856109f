/**
 * Any agent that speaks the Agent Client Protocol, from config alone: `backend: acp` with
 * `command: [executable, …args]` (and optionally model and mode ids). What an unknown agent does
 * is not known, so the defaults are the conservative ones: its provider must be declared, a
 * model is selected the way the session offers (config option, else set_model) and otherwise
 * left unverified, answer-only still fails closed on every acting tool call (policy.ts), and it
 * is never trusted with an isolated write. The same parser and classifier read the agents whose
 * own folders declare an ACP profile (gemini, opencode, copilot, claude, codex).
 */
import type { AcpProfile, Adapter } from "../contract.ts";
import { acpClassifier, explainAcp } from "./classify.ts";
import { acpParser } from "./parse.ts";

const UNKNOWN_WRITES = "an agent known only by its ACP command has no containment orchestrate can vouch for";

/**
 * Usage is optional in ACP (codex-acp and qwen send none): a limit on a figure an unknown agent may
 * never report could never fire, so every figure is "none" and such limits are refused.
 */
export const GENERIC_ACP: AcpProfile = {
  launch: [],
  only: true,
  setModel: "auto",
  exitGraceMs: 2000,
  writes: { isolatedWrite: false, patch: true, why: UNKNOWN_WRITES },
  traits: { usage: { tokens: "none", cost: "none", turns: "none" }, identity: "none", resumedUsage: "per-turn", containment: "none" },
};

/** How the runner reads an ACP run of an agent with this profile. */
export function acpSpeaker(profile: AcpProfile | undefined): Pick<Adapter, "parse" | "classify" | "explain"> {
  return { parse: acpParser(profile), classify: acpClassifier(profile), explain: explainAcp };
}

export const acpAdapter: Adapter = {
  backend: "acp",
  acp: GENERIC_ACP,
  provider: { kind: "declared" },
  modelOptional: true,
  writes: GENERIC_ACP.writes,
  // Never launched headless: the runner drives every acp agent over ACP.
  invocation: () => ({ args: [] }),
  ...acpSpeaker(GENERIC_ACP),
  probes: { version: [], help: [], requiredFlags: [], loginHint: "sign in the way the agent's own documentation says" },
  supportsResume: true,
  traits: GENERIC_ACP.traits,
  installDirs: [],
  history: "the agent's own session store (see its documentation)",
};

export { acpLine, type AcpPhase, type AcpRecord } from "./records.ts";
export { kindActs, loginHintOf, permissionAnswer, type RoutePermissions } from "./policy.ts";
