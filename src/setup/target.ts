/** Which file init, init_apply, import and accept-pending act on, and whether writing it would hide the live one. */
import { resolve } from "node:path";
import { defaultConfigPath, describeOrigin, expandHome, resolveConfigPath, type ConfigLocation, type Env } from "../config/paths.ts";

/**
 * An explicit path wins; else the server's own lookup — except a legacy (seed) location, which is
 * never rewritten in the unified format: the unified default path is used instead.
 */
export function targetConfigPath(env: Env, explicit?: string): string {
  if (explicit) return resolve(expandHome(explicit, env));
  const location = resolveConfigPath(env);
  return location.legacy ? defaultConfigPath(env) : location.path;
}

export interface LiveConflict {
  /** The config the server reads today. */
  live: ConfigLocation;
  /** What writing the target would do to it, in a sentence. */
  message: string;
}

/**
 * Writing `target` when the server reads another file today either shadows that file (the target
 * comes first in discovery, config/paths.ts) or is itself ignored (an environment variable names the
 * live one). Either way the person has to hear it before anything is written.
 */
export function liveConflict(env: Env, target: string, cwd?: string): LiveConflict | undefined {
  const opts = cwd === undefined ? {} : { cwd };
  const live = resolveConfigPath(env, opts);
  const path = resolve(target);
  if (!live.exists || live.path === path) return undefined;
  const how = describeOrigin(live.origin);
  const after = resolveConfigPath(env, { ...opts, assumeExists: path });
  if (after.path === path) {
    return {
      live,
      message: `The server reads ${live.path} today (${how}). Writing ${path} would shadow it: from then on the server reads ${path}, and ${live.path} — with whatever tools it turns on — is ignored.`,
    };
  }
  return {
    live,
    message: `The server reads ${live.path} (${how}), not ${path}: a config written there has no effect while ${live.explicit ? `${live.origin} is set` : `${live.path} exists`}.`,
  };
}
