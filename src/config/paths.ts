/**
 * Where the config file lives (SPEC §6). Kept free of arktype and of the loader so the server
 * can find its config without paying for the schema library.
 */
import { lstatSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";

export type Env = Record<string, string | undefined>;

export type ConfigOrigin =
  /** Named on the command line (`check PATH`). */
  | "argument"
  | "ORCHESTRATE_CONFIG"
  | "xdg"
  | "home"
  | "MCP_ROUTER_CONFIG"
  | "ORCHESTRATOR_CONFIG"
  | "legacy-xdg"
  | "legacy-home"
  /** Nothing exists: the path `init` would write. */
  | "default";

export interface ConfigLocation {
  path: string;
  origin: ConfigOrigin;
  /** Whether something (file, symlink, anything) is at `path`. */
  exists: boolean;
  /** True when the person named this path (env var): a missing file is then an error. */
  explicit: boolean;
  legacy?: "mcp-router" | "orchestrator";
  /** A migration notice for stderr, set for every legacy location. */
  notice?: string;
}

export function homeDir(env: Env): string {
  return env.HOME && isAbsolute(env.HOME) ? env.HOME : homedir();
}

/** `~` and `~/x` → the home directory; anything else unchanged. */
export function expandHome(path: string, env: Env): string {
  if (path === "~") return homeDir(env);
  if (path.startsWith("~/")) return join(homeDir(env), path.slice(2));
  return path;
}

function existsAt(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

function configDirs(env: Env, name: string): { dir: string; origin: "xdg" | "home" }[] {
  const home = join(homeDir(env), ".config", name);
  const xdg = env.XDG_CONFIG_HOME && isAbsolute(env.XDG_CONFIG_HOME) ? join(env.XDG_CONFIG_HOME, name) : undefined;
  const dirs: { dir: string; origin: "xdg" | "home" }[] = [];
  if (xdg) dirs.push({ dir: xdg, origin: "xdg" });
  if (xdg !== home) dirs.push({ dir: home, origin: "home" });
  return dirs;
}

/** The default location of the unified config: where `init` writes. */
export function defaultConfigPath(env: Env): string {
  const first = configDirs(env, "orchestrate")[0];
  return join(first ? first.dir : join(homeDir(env), ".config", "orchestrate"), "config.yaml");
}

function legacyNotice(path: string, how: string, env: Env): string {
  return (
    `reading a legacy config ${path} (${how}); it still works, but move it: ` +
    `orchestrate import ${path} writes ${defaultConfigPath(env)}`
  );
}

function explicitLocation(raw: string, origin: ConfigOrigin, env: Env): ConfigLocation {
  const path = resolve(expandHome(raw, env));
  return { path, origin, exists: existsAt(path), explicit: true };
}

function newStyle(env: Env): ConfigLocation | undefined {
  for (const { dir, origin } of configDirs(env, "orchestrate")) {
    for (const file of ["config.yaml", "config.yml", "config.json"]) {
      const path = join(dir, file);
      if (existsAt(path)) return { path, origin, exists: true, explicit: false };
    }
  }
  return undefined;
}

function legacyStyle(env: Env): ConfigLocation | undefined {
  if (env.MCP_ROUTER_CONFIG) {
    const loc = explicitLocation(env.MCP_ROUTER_CONFIG, "MCP_ROUTER_CONFIG", env);
    return { ...loc, legacy: "mcp-router", notice: legacyNotice(loc.path, "MCP_ROUTER_CONFIG; set ORCHESTRATE_CONFIG instead", env) };
  }
  if (env.ORCHESTRATOR_CONFIG) {
    const loc = explicitLocation(env.ORCHESTRATOR_CONFIG, "ORCHESTRATOR_CONFIG", env);
    return { ...loc, legacy: "orchestrator", notice: legacyNotice(loc.path, "ORCHESTRATOR_CONFIG; set ORCHESTRATE_CONFIG instead", env) };
  }
  for (const { dir, origin } of configDirs(env, "mcp-router")) {
    const path = join(dir, "config.json");
    if (!existsAt(path)) continue;
    const legacyOrigin = origin === "xdg" ? "legacy-xdg" : "legacy-home";
    return { path, origin: legacyOrigin, exists: true, explicit: false, legacy: "mcp-router", notice: legacyNotice(path, "mcp-router's location", env) };
  }
  return undefined;
}

/**
 * `$ORCHESTRATE_CONFIG`, else `$XDG_CONFIG_HOME/orchestrate/config.{yaml,yml,json}`, else
 * `~/.config/orchestrate/…`; only when none of those exists, the seeds' locations, each with a
 * notice. Nothing anywhere → the default path with `exists: false`.
 */
export function resolveConfigPath(env: Env): ConfigLocation {
  if (env.ORCHESTRATE_CONFIG) return explicitLocation(env.ORCHESTRATE_CONFIG, "ORCHESTRATE_CONFIG", env);
  const found = newStyle(env) ?? legacyStyle(env);
  if (found) return found;
  return { path: defaultConfigPath(env), origin: "default", exists: false, explicit: false };
}
