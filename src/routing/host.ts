/**
 * The host runtime: ORCHESTRATE_HOST_RUNTIME is authoritative (ORCHESTRATOR_HOST_RUNTIME honoured),
 * else the MCP client's initialize clientInfo for well-known clients. Never a tool argument. Pure.
 */
import { BACKENDS, type Backend } from "../adapters/types.ts";

/** clientInfo.name values of known clients → the runtime they run on. */
const CLIENT_RUNTIMES: [RegExp, Backend][] = [
  [/^claude[- ]code$|^claude-ai$|^claude$/i, "claude"],
  [/^codex/i, "codex"],
  [/^opencode/i, "opencode"],
  [/^gemini/i, "gemini"],
  [/^(github[- ])?copilot/i, "copilot"],
  [/^grok/i, "grok"],
];

export type HostSource = "env" | "legacy-env" | "client";

export function detectHostRuntime(env: Record<string, string | undefined>, clientName: string | undefined): { runtime: Backend; source: HostSource } | { runtime: undefined; problem: string } {
  const fromEnv = env.ORCHESTRATE_HOST_RUNTIME ?? env.ORCHESTRATOR_HOST_RUNTIME;
  if (fromEnv !== undefined) {
    const runtime = fromEnv.trim().toLowerCase();
    if (!(BACKENDS as readonly string[]).includes(runtime)) return { runtime: undefined, problem: `ORCHESTRATE_HOST_RUNTIME="${fromEnv}" is not one of ${BACKENDS.join(", ")}` };
    return { runtime: runtime as Backend, source: env.ORCHESTRATE_HOST_RUNTIME !== undefined ? "env" : "legacy-env" };
  }
  const match = clientName ? CLIENT_RUNTIMES.find(([re]) => re.test(clientName.trim())) : undefined;
  if (match) return { runtime: match[1], source: "client" };
  return { runtime: undefined, problem: `the host runtime is unknown (client "${clientName ?? "?"}"); set ORCHESTRATE_HOST_RUNTIME in the server's env when registering it (e.g. claude mcp add orchestrate -e ORCHESTRATE_HOST_RUNTIME=claude -- …)` };
}
