import { homedir } from "node:os";
import { join } from "node:path";

/**
 * Where the store lives: `$ORCHESTRATE_DB`, else `$XDG_STATE_HOME/orchestrate/orchestrate.db`,
 * else `~/.local/state/orchestrate/orchestrate.db`. Empty variables count as unset so a blank
 * `XDG_STATE_HOME=` in a client's launch config does not put the file in the cwd.
 */
export function defaultStorePath(env: Record<string, string | undefined> = process.env): string {
  const explicit = env.ORCHESTRATE_DB;
  if (explicit) return explicit;
  const state = env.XDG_STATE_HOME;
  if (state) return join(state, "orchestrate", "orchestrate.db");
  const home = env.HOME || homedir();
  return join(home, ".local", "state", "orchestrate", "orchestrate.db");
}
