/**
 * The cwd allowlist (README "Safety"): the security boundary for where a delegate may work. A cwd is
 * resolved (realpath) before it is compared, so a symlink inside a root that points outside it
 * is outside; `/` is never a root and never a cwd.
 */
import { realpathSync, statSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { log } from "../log.ts";
import { fail, ok, type Result } from "../result.ts";

type Env = Record<string, string | undefined>;

function home(env: Env): string | undefined {
  return env.HOME && isAbsolute(env.HOME) ? env.HOME : undefined;
}

function expand(entry: string, env: Env): string {
  const h = home(env);
  if (h && (entry === "~" || entry.startsWith("~/"))) return join(h, entry.slice(1));
  return entry;
}

function realRoot(entry: string, from: string, env: Env): string | undefined {
  const path = expand(entry.trim(), env);
  if (!path) return undefined;
  if (!isAbsolute(path)) {
    log.warn(`${from}: ignoring root ${JSON.stringify(entry)}: roots must be absolute paths`);
    return undefined;
  }
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    log.warn(`${from}: ignoring root ${path}: it does not exist`);
    return undefined;
  }
  if (real === "/") {
    log.warn(`${from}: ignoring root ${path}: / is never accepted as a root`);
    return undefined;
  }
  return real;
}

function pick(env: Env, config: { roots: readonly string[] }): { entries: string[]; from: string } {
  if (env.ORCHESTRATE_ROOTS) return { entries: env.ORCHESTRATE_ROOTS.split(":"), from: "ORCHESTRATE_ROOTS" };
  if (env.MCP_ROUTER_ROOTS) {
    log.warn("reading roots from MCP_ROUTER_ROOTS (mcp-router's name); it still works, but rename it to ORCHESTRATE_ROOTS");
    return { entries: env.MCP_ROUTER_ROOTS.split(":"), from: "MCP_ROUTER_ROOTS" };
  }
  if (config.roots.length > 0) return { entries: [...config.roots], from: "config roots" };
  const h = home(env);
  return { entries: h ? [join(h, "Projects")] : [], from: "default root" };
}

/** ORCHESTRATE_ROOTS, else MCP_ROUTER_ROOTS (with a notice), else the config's roots, else $HOME/Projects. */
export function resolveRoots(env: Env, config: { roots: readonly string[] }): string[] {
  const { entries, from } = pick(env, config);
  const roots: string[] = [];
  for (const entry of entries) {
    const real = realRoot(entry, from, env);
    if (real && !roots.includes(real)) roots.push(real);
  }
  return roots;
}

export const ADD_ROOT = (dir: string) => `add ${dir} (or a parent of it) to ORCHESTRATE_ROOTS (colon-separated) or to roots: in the config`;

export function inside(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith("/") ? root : `${root}/`);
}

export function realRoots(roots: readonly string[]): string[] {
  return roots.flatMap((root) => {
    try {
      const real = realpathSync(root);
      return real === "/" ? [] : [real];
    } catch {
      return [];
    }
  });
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The realpath of `cwd` when it is an existing directory inside one of `roots`. */
export function checkCwd(cwd: string, roots: readonly string[]): Result<string, "cwd_outside_roots" | "cwd_invalid"> {
  if (typeof cwd !== "string" || cwd === "" || cwd.includes("\0"))
    return fail("cwd_invalid", "cwd is empty or malformed", "pass the absolute path of the project directory");
  if (!isAbsolute(cwd))
    return fail(
      "cwd_invalid",
      `cwd ${JSON.stringify(cwd)} is relative`,
      "pass an absolute path (relative paths resolve against the server's directory, not yours)",
    );
  if (cwd.split("/").includes("..")) return fail("cwd_invalid", `cwd ${cwd} contains a .. segment`, "pass the directory's absolute path without .. segments");
  let real: string;
  try {
    real = realpathSync(cwd);
  } catch {
    return fail("cwd_invalid", `cwd ${cwd} does not exist`, "pass an existing directory");
  }
  // /dev/fd/0 on a pipe "resolves" to `pipe:[1234]`, which is no path at all and cannot be stat'ed.
  if (!isAbsolute(real) || !isDirectory(real))
    return fail(
      "cwd_invalid",
      `cwd ${cwd} is not a directory${real === cwd ? "" : ` (it resolves to ${real})`}`,
      "pass the project directory, not a file in it",
    );
  if (real === "/") return fail("cwd_outside_roots", "cwd / is never accepted", "pass the project directory itself");
  const allowed = realRoots(roots);
  if (allowed.some((root) => inside(real, root))) return ok(real);
  const resolvedNote = real === cwd ? "" : ` (it resolves to ${real})`;
  const list = allowed.length > 0 ? allowed.join(", ") : "none: no configured root exists";
  return fail("cwd_outside_roots", `cwd ${cwd}${resolvedNote} is outside the allowed roots (${list})`, ADD_ROOT(real), { cwd, resolved: real, roots: allowed });
}
