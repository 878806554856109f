/**
 * The child's environment, built deliberately: the parent's environment minus orchestrate's own
 * control variables (a delegate that runs orchestrate must not inherit our config or init rights),
 * plus the recursion depth, plus what the adapter asked for. Nothing else is added: no secret is
 * ever invented here. The depth comes from the one definition of the recursion guard
 * (src/safety/depth.ts), so a garbled value makes the child deeper, never shallower.
 */
import { childDepthEnv } from "../safety/depth.ts";

/** Variables that steer this orchestrate process and must not leak into a nested one. */
export const CONTROL_VARIABLES: readonly string[] = [
  "ORCHESTRATE_CONFIG",
  "MCP_ROUTER_CONFIG",
  "ORCHESTRATOR_CONFIG",
  "ORCHESTRATE_ALLOW_INIT",
  "ORCHESTRATE_HISTORY_TOOLS",
  "ORCHESTRATE_TOOL_NAMES",
  "MCP_ROUTER_ALLOW_INIT",
  "ORCHESTRATE_HOST_RUNTIME",
  "ORCHESTRATOR_HOST_RUNTIME",
];

export function childEnv(base: Record<string, string | undefined>, additions: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(base)) if (value !== undefined) env[key] = value;
  for (const key of CONTROL_VARIABLES) delete env[key];
  for (const [key, value] of Object.entries(additions)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  // Set last so no addition can lower it: the depth is the recursion guard.
  Object.assign(env, childDepthEnv(base));
  return env;
}
