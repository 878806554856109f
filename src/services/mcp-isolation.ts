/**
 * The user's own MCP servers, for CLIs that can only switch them off by name: copilot loads every
 * server in $COPILOT_HOME/mcp-config.json (default ~/.copilot) into a delegated run; opencode and
 * codex in route mode load those of their global config and of the repo's own config. The names go
 * to the adapter (copilot: --disable-mcp-server; opencode: an inline config disabling each; codex:
 * `-c mcp_servers.NAME.enabled=false`). A delegate must not reach them — orchestrate itself may be
 * one. Claude, gemini, and codex/opencode in answer mode are isolated by flags or config instead.
 */
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { Backend, RunRequest } from "../adapters/types.ts";

export function userMcpServerNames(backend: Backend, env: Record<string, string | undefined>, cwd?: string): string[] {
  const home = env.HOME ?? homedir();
  if (backend === "copilot") return serverNames(join(env.COPILOT_HOME ?? join(home, ".copilot"), "mcp-config.json"), "mcpServers");
  if (backend === "codex") return codexServerNames(env.CODEX_HOME || join(home, ".codex"), cwd);
  if (backend !== "opencode") return [];
  const configDir = join(env.XDG_CONFIG_HOME || join(home, ".config"), "opencode");
  const files = [join(configDir, "opencode.json"), join(configDir, "opencode.jsonc"), join(configDir, "config.json")];
  if (cwd) files.push(join(cwd, "opencode.json"), join(cwd, "opencode.jsonc"), join(cwd, ".opencode", "opencode.json"), join(cwd, ".opencode", "opencode.jsonc"));
  return [...new Set(files.flatMap((file) => serverNames(file, "mcp")))];
}

/** The request fields that switch the user's servers off, or nothing when there are none. */
export function mcpIsolation(backend: Backend, env: Record<string, string | undefined>, cwd?: string): Pick<RunRequest, "disableMcpServers"> {
  const names = userMcpServerNames(backend, env, cwd);
  return names.length > 0 ? { disableMcpServers: names } : {};
}

/** [mcp_servers.NAME] tables of codex's config.toml (home and the repo's .codex/); bare keys only, as `-c` needs. */
function codexServerNames(codexHome: string, cwd: string | undefined): string[] {
  const files = [join(codexHome, "config.toml"), ...(cwd ? [join(cwd, ".codex", "config.toml")] : [])];
  const names = files.flatMap((file) => {
    try {
      const parsed = Bun.TOML.parse(readFileSync(file, "utf8")) as { mcp_servers?: unknown };
      const servers = parsed.mcp_servers;
      return typeof servers === "object" && servers !== null && !Array.isArray(servers) ? Object.keys(servers) : [];
    } catch {
      return [];
    }
  });
  return [...new Set(names)].filter((name) => /^[A-Za-z0-9_-]{1,128}$/.test(name));
}

function serverNames(file: string, key: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return [];
  }
  try {
    const parsed: unknown = JSON.parse(stripJsonComments(text));
    const servers = typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>)[key] : undefined;
    if (typeof servers !== "object" || servers === null || Array.isArray(servers)) return [];
    return Object.keys(servers).filter((name) => /^[\w.@-]{1,128}$/.test(name));
  } catch {
    return [];
  }
}

/** JSONC → JSON: drops // and /* *\/ comments and trailing commas, leaving strings untouched. */
export function stripJsonComments(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      const end = stringEnd(text, i);
      out += text.slice(i, end);
      i = end - 1;
    } else if (c === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
      out += "\n";
    } else if (c === "/" && text[i + 1] === "*") {
      const close = text.indexOf("*/", i + 2);
      i = close === -1 ? text.length : close + 1;
    } else out += c;
  }
  return out.replace(/,(\s*[}\]])/g, "$1");
}

function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i + 1;
  }
  return text.length;
}
