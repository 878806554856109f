/** Which file init, init_apply and accept-pending act on. */
import { resolve } from "node:path";
import { defaultConfigPath, expandHome, resolveConfigPath, type Env } from "../config/paths.ts";

/**
 * An explicit path wins; else the server's own lookup — except a legacy (seed) location, which is
 * never rewritten in the unified format: the unified default path is used instead.
 */
export function targetConfigPath(env: Env, explicit?: string): string {
  if (explicit) return resolve(expandHome(explicit, env));
  const location = resolveConfigPath(env);
  return location.legacy ? defaultConfigPath(env) : location.path;
}
