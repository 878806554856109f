/**
 * What the server says about itself in `initialize`. Kept apart from the SDK so the hand-written
 * handshake (mcp/front.ts) and the SDK server (mcp/server.ts) answer from the same facts.
 */
import { VERSION } from "../version.ts";
import { compiledIn } from "../safety/egress.ts";

export const SERVER_INFO = { name: "orchestrate", version: VERSION } as const;

/** The SDK's supported versions, newest first (a test pins this to the SDK's own list). */
export const SUPPORTED_PROTOCOL_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", "2024-10-07"] as const;

export const SERVER_CAPABILITIES = {
  tools: { listChanged: false },
  prompts: { listChanged: false },
  tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
} as const;

export const INSTRUCTIONS =
  "orchestrate hands coding work to the other coding-agent CLIs on this machine. Use route(prompt, cwd, tier) to delegate a task by cost tier (light/standard/heavy); router_dry_run to preview recipients; list_tiers to see what is configured; consult to ask another vendor's agent for a second opinion.";

// Compiled in: the egress scrub (safety/egress.ts) lets these through without running its rules.
compiledIn([SERVER_INFO, SUPPORTED_PROTOCOL_VERSIONS, SERVER_CAPABILITIES, INSTRUCTIONS]);

/** The SDK's rule: echo a supported requested version, else answer with the latest. */
export function negotiateProtocol(requested: unknown): string {
  return (SUPPORTED_PROTOCOL_VERSIONS as readonly unknown[]).includes(requested) ? (requested as string) : SUPPORTED_PROTOCOL_VERSIONS[0];
}

export function initializeResult(params: unknown): Record<string, unknown> {
  const requested = typeof params === "object" && params !== null ? (params as { protocolVersion?: unknown }).protocolVersion : undefined;
  return { protocolVersion: negotiateProtocol(requested), capabilities: SERVER_CAPABILITIES, serverInfo: SERVER_INFO, instructions: INSTRUCTIONS };
}
