/**
 * The user's own MCP servers, for CLIs that can only switch them off by name: the backend says
 * which of its config files list them (copilot's mcp-config.json, opencode's global and repo
 * configs, codex's config.toml); this module reads those files, best effort, and hands the names
 * to the backend's invocation as `disableMcpServers`. A delegate must not reach them —
 * orchestrate itself may be one. Backends isolated by flags alone declare no files.
 */
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import type { Adapter, Env, McpConfigFile, RunMode, RunRequest } from "../backends/contract.ts";

/** What a server name may look like when the backend does not narrow it further. */
const SAFE_NAME = /^[\w.@-]{1,128}$/;

export function userMcpServerNames(adapter: Adapter, env: Env, cwd?: string, mode: RunMode = "route"): string[] {
  const files = adapter.mcpConfigFiles?.({ env, home: env.HOME ?? homedir(), ...(cwd ? { cwd } : {}), mode }) ?? [];
  return [...new Set(files.flatMap(serverNames))];
}

/** The request fields that switch the user's servers off, or nothing when there are none. */
export function mcpIsolation(adapter: Adapter, env: Env, cwd?: string, mode: RunMode = "route"): Pick<RunRequest, "disableMcpServers"> {
  const names = userMcpServerNames(adapter, env, cwd, mode);
  return names.length > 0 ? { disableMcpServers: names } : {};
}

function serverNames(file: McpConfigFile): string[] {
  let text: string;
  try {
    text = readFileSync(file.path, "utf8");
  } catch {
    return [];
  }
  const servers = serversOf(text, file);
  if (typeof servers !== "object" || servers === null || Array.isArray(servers)) return [];
  return Object.keys(servers).filter((name) => (file.names ?? SAFE_NAME).test(name));
}

function serversOf(text: string, file: McpConfigFile): unknown {
  try {
    const parsed: unknown = file.format === "toml" ? Bun.TOML.parse(text) : JSON.parse(stripJsonComments(text));
    return typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>)[file.key] : undefined;
  } catch {
    return undefined;
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
