/**
 * Where the config file lives (docs/config-discovery.md). Kept free of arktype and of the loader so the server
 * can find its config without paying for the schema library.
 */
import { lstatSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { cwdConfig } from "./cwd-config.ts";

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
  /** `~/.orchestrator-mcp/config.yaml`, what Orchestrator MCP's `init` writes. */
  | "orchestrator-home"
  /** `config.yaml` in the server's working directory: Orchestrator MCP's default, read only under cwd-config.ts's rule. */
  | "orchestrator-cwd"
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
  /** One notice for stderr: a legacy location, and every config this choice shadows. */
  notice?: string;
  /** Other configs that exist (or are named) but lose to this one: each path and why it was there. */
  shadowed?: { path: string; origin: ConfigOrigin }[];
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

export function configDirs(env: Env, name: string): { dir: string; origin: "xdg" | "home" }[] {
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
  return `reading a legacy config ${path} (${how}); it still works, but move it: ` + `orchestrate import ${path} writes ${defaultConfigPath(env)}`;
}

/** Why each place is looked at, in the words of the notice. */
const HOW: Record<ConfigOrigin, string> = {
  argument: "named on the command line",
  ORCHESTRATE_CONFIG: "ORCHESTRATE_CONFIG",
  xdg: "orchestrate's default",
  home: "orchestrate's default",
  default: "orchestrate's default",
  MCP_ROUTER_CONFIG: "MCP_ROUTER_CONFIG",
  ORCHESTRATOR_CONFIG: "ORCHESTRATOR_CONFIG",
  "legacy-xdg": "mcp-router's location",
  "legacy-home": "mcp-router's location",
  "orchestrator-home": "Orchestrator MCP's init location",
  "orchestrator-cwd": "Orchestrator MCP's default: config.yaml in the working directory",
};

/** How a location came to be looked at, for notices and for init/import's warnings. */
export function describeOrigin(origin: ConfigOrigin): string {
  return HOW[origin];
}

type Candidate = Omit<ConfigLocation, "notice" | "shadowed">;

/** The environment variables that name a file, in the order they win: the person chose these. */
const NAMING_VARS = [
  { name: "ORCHESTRATE_CONFIG", legacy: undefined },
  { name: "MCP_ROUTER_CONFIG", legacy: "mcp-router" },
  { name: "ORCHESTRATOR_CONFIG", legacy: "orchestrator" },
] as const;

function named(env: Env): Candidate[] {
  return NAMING_VARS.flatMap(({ name, legacy }) => {
    const raw = env[name];
    if (!raw) return [];
    const path = resolve(expandHome(raw, env));
    return [{ path, origin: name, exists: existsAt(path), explicit: true, ...(legacy ? { legacy } : {}) }];
  });
}

/** Every default place that holds a file, best first: orchestrate's own, then the seeds'. */
function defaults(env: Env, cwd: string | undefined): Candidate[] {
  const found: Candidate[] = [];
  for (const { dir, origin } of configDirs(env, "orchestrate")) {
    const file = ["config.yaml", "config.yml", "config.json"].map((f) => join(dir, f)).find(existsAt);
    if (file) found.push({ path: file, origin, exists: true, explicit: false });
  }
  for (const { dir, origin } of configDirs(env, "mcp-router")) {
    const path = join(dir, "config.json");
    if (existsAt(path)) found.push({ path, origin: origin === "xdg" ? "legacy-xdg" : "legacy-home", exists: true, explicit: false, legacy: "mcp-router" });
  }
  const orchestratorHome = join(homeDir(env), ".orchestrator-mcp", "config.yaml");
  if (existsAt(orchestratorHome)) found.push({ path: orchestratorHome, origin: "orchestrator-home", exists: true, explicit: false, legacy: "orchestrator" });
  const here = cwd === undefined ? undefined : cwdConfig(cwd);
  if (here?.ok) found.push({ path: here.path, origin: "orchestrator-cwd", exists: true, explicit: false, legacy: "orchestrator" });
  return found;
}

/** Why a working-directory config.yaml that looks like Orchestrator MCP's is not read, when it is not. */
function skippedCwd(cwd: string | undefined): string | undefined {
  const here = cwd === undefined ? undefined : cwdConfig(cwd);
  return here && !here.ok
    ? `${here.path} looks like an Orchestrator MCP config but is not read: ${here.reason} (set ORCHESTRATOR_CONFIG to its absolute path to use it)`
    : undefined;
}

function noticeFor(chosen: Candidate, shadowed: Candidate[], env: Env): string | undefined {
  const parts: string[] = [];
  if (chosen.legacy) parts.push(legacyNotice(chosen.path, chosen.explicit ? `${chosen.origin}; set ORCHESTRATE_CONFIG instead` : HOW[chosen.origin], env));
  if (shadowed.length > 0) {
    const lost = shadowed.map((c) => `${c.path} (${HOW[c.origin]})`).join(", ");
    if (parts.length === 0) parts.push(`reading ${chosen.path} (${HOW[chosen.origin]})`);
    parts.push(`not read, because ${chosen.explicit ? "an environment variable names a file" : "it comes first"}: ${lost}`);
  }
  return parts.length > 0 ? parts.join("; ") : undefined;
}

/** The candidates as they will be once `assumed` is written: orchestrate's default path takes its place among the defaults. */
function withAssumed(candidates: Candidate[], namedCount: number, env: Env, assumeExists: string | undefined): Candidate[] {
  if (!assumeExists) return candidates;
  const assumed = resolve(assumeExists);
  if (candidates.some((c) => c.path === assumed)) return candidates.map((c) => (c.path === assumed ? { ...c, exists: true } : c));
  if (assumed !== defaultConfigPath(env)) return candidates;
  const origin = configDirs(env, "orchestrate")[0]?.origin ?? "home";
  return [...candidates.slice(0, namedCount), { path: assumed, origin, exists: true, explicit: false }, ...candidates.slice(namedCount)];
}

export interface ResolveOptions {
  /** The server's working directory, for Orchestrator MCP's `./config.yaml` (default process.cwd()). */
  cwd?: string;
  /** Treat this path as existing: where a config is about to be written (init, import). */
  assumeExists?: string;
}

/**
 * An environment variable that names a file wins over every default (ORCHESTRATE_CONFIG, then
 * MCP_ROUTER_CONFIG, then ORCHESTRATOR_CONFIG), even when that file is missing — the loader then says
 * so. Otherwise the first default that exists: `$XDG_CONFIG_HOME/orchestrate/config.{yaml,yml,json}`,
 * `~/.config/orchestrate/…`, mcp-router's `config.json` there, `~/.orchestrator-mcp/config.yaml`, and
 * last a working-directory `config.yaml` that passes cwd-config.ts's rule (only when no variable
 * names a file). One notice names a legacy choice and every config it shadows. Nothing anywhere →
 * the default path with `exists: false`.
 */
export function resolveConfigPath(env: Env, opts: ResolveOptions = {}): ConfigLocation {
  const names = named(env);
  const cwd = names.length > 0 ? undefined : (opts.cwd ?? process.cwd());
  const candidates = withAssumed([...names, ...defaults(env, cwd)], names.length, env, opts.assumeExists);
  const [chosen, ...rest] = candidates;
  if (!chosen) {
    const skipped = skippedCwd(cwd);
    return { path: defaultConfigPath(env), origin: "default", exists: false, explicit: false, ...(skipped ? { notice: skipped } : {}) };
  }
  const shadowed = rest.filter((c) => c.exists && c.path !== chosen.path);
  const notice = noticeFor(chosen, shadowed, env);
  return { ...chosen, ...(notice ? { notice } : {}), ...(shadowed.length ? { shadowed: shadowed.map(({ path, origin }) => ({ path, origin })) } : {}) };
}
