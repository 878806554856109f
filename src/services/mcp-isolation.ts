/**
 * The user's own MCP servers for CLIs that can only switch them off by name. Copilot loads every
 * server in $COPILOT_HOME/mcp-config.json (default ~/.copilot) into a delegated run; the names go
 * to the adapter, which passes --disable-mcp-server for each. Claude, codex (answer mode), opencode
 * (answer mode) and gemini are isolated by flags or config instead.
 */
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { Backend, RunRequest } from "../adapters/types.ts";

export function userMcpServerNames(backend: Backend, env: Record<string, string | undefined>): string[] {
  if (backend !== "copilot") return [];
  const home = env.COPILOT_HOME ?? join(env.HOME ?? homedir(), ".copilot");
  try {
    const parsed: unknown = JSON.parse(readFileSync(join(home, "mcp-config.json"), "utf8"));
    const servers = typeof parsed === "object" && parsed !== null ? (parsed as { mcpServers?: unknown }).mcpServers : undefined;
    if (typeof servers !== "object" || servers === null || Array.isArray(servers)) return [];
    return Object.keys(servers).filter((name) => /^[\w.@-]{1,128}$/.test(name));
  } catch {
    return [];
  }
}

/** The request fields that switch the user's servers off, or nothing when there are none. */
export function mcpIsolation(backend: Backend, env: Record<string, string | undefined>): Pick<RunRequest, "disableMcpServers"> {
  const names = userMcpServerNames(backend, env);
  return names.length > 0 ? { disableMcpServers: names } : {};
}
