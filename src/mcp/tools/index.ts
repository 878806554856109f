import type { ToolDef } from "../define.ts";
import { coreTools } from "./core.ts";
import { initTools } from "./init.ts";
import { consultTools } from "./consult.ts";
import { jobTools } from "./jobs.ts";

/** Every tool the server can advertise, in tools/list order. */
export function allTools(): ToolDef[] {
  return [...coreTools, ...consultTools, ...jobTools, ...initTools];
}

/** The tools this process advertises: core always; opt-in groups by environment. */
export function activeTools(env: Record<string, string | undefined>): ToolDef[] {
  const initAllowed = env.ORCHESTRATE_ALLOW_INIT === "1" || env.MCP_ROUTER_ALLOW_INIT === "1";
  return allTools().filter((tool) => tool.group !== "init" || initAllowed);
}
