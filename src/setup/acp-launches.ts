/**
 * The ACP agents the wizard can offer: every known launch (src/backends/known-acp.ts) whose
 * executable is on PATH. Resolving runs nothing, so looking costs no start-up of any agent.
 */
import { KNOWN_ACP_LAUNCHES, type KnownAcpLaunch } from "../backends/known-acp.ts";
import type { Env } from "../backends/contract.ts";
import { resolveCommand } from "../process/resolve.ts";

export interface FoundAcpLaunch extends KnownAcpLaunch {
  path: string;
}

export function findAcpLaunches(env: Env, known: readonly KnownAcpLaunch[] = KNOWN_ACP_LAUNCHES): FoundAcpLaunch[] {
  return known.flatMap((k) => {
    const found = resolveCommand(k.executable, { env, homeDirs: [] });
    return found ? [{ ...k, path: found.path }] : [];
  });
}
