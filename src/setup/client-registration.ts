/**
 * A client's MCP config (Claude Code's `.mcp.json` / `~/.claude.json`, Claude Desktop's JSON,
 * Codex's `config.toml`) that registers mcp-router as `npx -y mcp-orchestrate`. `orchestrate
 * import` follows such a registration to the router config it reads — its `MCP_ROUTER_CONFIG`, or
 * mcp-router's default `config.json` — because that is the file that holds the person's tiers.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { configDirs, expandHome, type Env } from "../config/paths.ts";

export interface RouterRegistration {
  /** The server's name in the client config. */
  server: string;
  /** The router config that registration reads. */
  routerConfig: string;
}

const PACKAGE = /^mcp-orchestrate(@[^\s/]+)?$/;

type Entry = { command?: unknown; args?: unknown; env?: unknown };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `npx [-y] mcp-orchestrate[@version]`, or the package's bin run directly. */
function runsRouter(entry: Entry): boolean {
  const command = typeof entry.command === "string" ? entry.command : "";
  const args = Array.isArray(entry.args) ? entry.args.filter((a): a is string => typeof a === "string") : [];
  const base = command.split("/").pop() ?? "";
  if (base === "mcp-orchestrate") return true;
  if (base !== "npx" && base !== "bunx" && base !== "pnpx") return false;
  const pkg = args.find((a) => !a.startsWith("-"));
  return pkg !== undefined && PACKAGE.test(pkg);
}

function routerConfigOf(entry: Entry, env: Env): string {
  const named = isRecord(entry.env) && typeof entry.env.MCP_ROUTER_CONFIG === "string" ? entry.env.MCP_ROUTER_CONFIG : undefined;
  if (named) return resolve(expandHome(named, env));
  const files = configDirs(env, "mcp-router").map(({ dir }) => join(dir, "config.json"));
  return files.find((f) => existsSync(f)) ?? files[0] ?? join(env.HOME ?? "~", ".config", "mcp-router", "config.json");
}

function parsed(text: string, path: string): unknown {
  try {
    return /\.toml$/i.test(path) ? Bun.TOML.parse(text) : JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The mcp-orchestrate registrations in a client config; none when the file is not one. */
export function routerRegistrations(text: string, path: string, env: Env): RouterRegistration[] {
  const doc = parsed(text, path);
  if (!isRecord(doc)) return [];
  const servers = isRecord(doc.mcpServers) ? doc.mcpServers : isRecord(doc.mcp_servers) ? doc.mcp_servers : undefined;
  if (!servers) return [];
  return Object.entries(servers).flatMap(([server, entry]) =>
    isRecord(entry) && runsRouter(entry) ? [{ server, routerConfig: routerConfigOf(entry, env) }] : [],
  );
}
