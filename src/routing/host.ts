/**
 * The host runtime: ORCHESTRATE_HOST_RUNTIME is authoritative (ORCHESTRATOR_HOST_RUNTIME honoured),
 * else the MCP client's initialize clientInfo for well-known clients. Never a tool argument. Pure.
 */
import { adapters, BACKENDS, isBackend, type Backend } from "../backends/index.ts";

export type HostSource = "env" | "legacy-env" | "client";

export function detectHostRuntime(
  env: Record<string, string | undefined>,
  clientName: string | undefined,
): { runtime: Backend; source: HostSource } | { runtime: undefined; problem: string } {
  const fromEnv = env.ORCHESTRATE_HOST_RUNTIME ?? env.ORCHESTRATOR_HOST_RUNTIME;
  if (fromEnv !== undefined) {
    const runtime = fromEnv.trim().toLowerCase();
    if (!isBackend(runtime)) return { runtime: undefined, problem: `ORCHESTRATE_HOST_RUNTIME="${fromEnv}" is not one of ${BACKENDS.join(", ")}` };
    return { runtime, source: env.ORCHESTRATE_HOST_RUNTIME !== undefined ? "env" : "legacy-env" };
  }
  // clientInfo.name of a well-known client (each backend says what its CLI sends) → its runtime.
  const match = clientName ? BACKENDS.find((b) => adapters[b].client?.names.test(clientName.trim())) : undefined;
  if (match) return { runtime: match, source: "client" };
  return {
    runtime: undefined,
    problem: `the host runtime is unknown (client "${clientName ?? "?"}"); set ORCHESTRATE_HOST_RUNTIME in the server's env when registering it (e.g. claude mcp add orchestrate -e ORCHESTRATE_HOST_RUNTIME=claude -- …)`,
  };
}
