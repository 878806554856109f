/**
 * Finds a CLI's executable. MCP clients launched from a GUI pass a small PATH, so after the
 * configured path and PATH we look where the usual installers put things. Only filesystem checks:
 * spawning `npm prefix -g` would cost startup time on every launch.
 */
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, isAbsolute, join } from "node:path";

export type ResolvedVia = "configured" | "path" | "usual";

export interface ResolvedCommand {
  path: string;
  via: ResolvedVia;
}

export interface ResolveOptions {
  env: Record<string, string | undefined>;
  /** Searched before the usual locations (e.g. directories named in the config). */
  extraDirs?: string[];
  /** The CLI's own installer directories under $HOME (its backend's `installDirs`), searched last. */
  homeDirs?: readonly string[];
}

/** `name` is a bare command name, or an absolute path that is used as is. */
export function resolveCommand(name: string, opts: ResolveOptions): ResolvedCommand | undefined {
  if (isAbsolute(name)) return isExecutableFile(name) ? { path: name, via: "configured" } : undefined;
  // A relative path would depend on orchestrate's own cwd: never guess.
  if (name === "" || name.includes("/")) return undefined;
  const onPath = findIn(pathDirs(opts.env), name);
  if (onPath) return { path: onPath, via: "path" };
  const usual = findIn([...(opts.extraDirs ?? []), ...usualDirs(opts.env, opts.homeDirs)], name);
  return usual ? { path: usual, via: "usual" } : undefined;
}

export function pathDirs(env: Record<string, string | undefined>): string[] {
  return (env.PATH ?? "").split(delimiter).filter((dir) => isAbsolute(dir));
}

/** Homebrew, the npm global prefix, and the CLI's own installer (`homeDirs`), in that order. */
export function usualDirs(env: Record<string, string | undefined>, homeDirs: readonly string[] = []): string[] {
  const dirs = ["/opt/homebrew/bin", "/usr/local/bin", "/home/linuxbrew/.linuxbrew/bin"];
  const prefix = env.npm_config_prefix ?? env.NPM_CONFIG_PREFIX;
  if (prefix && isAbsolute(prefix)) dirs.push(join(prefix, "bin"));
  const home = env.HOME;
  if (!home || !isAbsolute(home)) return dirs;
  const inHome = [
    ".npm-global/bin",
    ".local/share/npm/bin",
    ".local/bin",
    ".bun/bin",
    ...homeDirs.filter((dir) => !isAbsolute(dir) && !dir.split("/").includes("..")),
  ];
  return [...new Set([...dirs, ...inHome.map((dir) => join(home, dir))])];
}

function findIn(dirs: string[], name: string): string | undefined {
  for (const dir of dirs) {
    const candidate = join(dir, name);
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

export function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
