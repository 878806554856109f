/**
 * The registry of live process groups. Children are spawned detached (their own session), so they
 * do not die with orchestrate: killing them on shutdown, on a closed MCP transport and on SIGINT /
 * SIGTERM / SIGHUP is our job.
 */
import { groupAlive, signalGroup, waitGroupGone } from "./kill.ts";

/** Reasons an outside party ends a run; recorded as the run's endReason. */
export type StopReason = "cancelled" | "budget_exceeded" | "shutdown";

export const STOP_REASONS: readonly StopReason[] = ["cancelled", "budget_exceeded", "shutdown"];

/** `stop` ends the group (SIGTERM, SIGKILL after its grace, sweep) and resolves when it is gone. */
interface LiveGroup {
  pid: number;
  stop: (reason: StopReason) => Promise<void>;
}

const live = new Map<number, LiveGroup>();

/** Registers a running group; returns the function that unregisters it. */
export function registerLive(pid: number, stop: (reason: StopReason) => Promise<void>): () => void {
  const entry: LiveGroup = { pid, stop };
  live.set(pid, entry);
  return () => {
    if (live.get(pid) === entry) live.delete(pid);
  };
}

export function liveCount(): number {
  return live.size;
}

/** Ends every live group with `reason`; resolves when all of them are gone. */
export async function killAllLive(reason: StopReason = "shutdown"): Promise<void> {
  await Promise.all([...live.values()].map((group) => group.stop(reason).catch(() => undefined)));
}

/** Last resort on a second signal: SIGKILL every group now, without grace. */
async function killAllNow(): Promise<void> {
  const pids = [...live.keys()];
  for (const pid of pids) signalGroup(pid, "SIGKILL");
  await Promise.all(pids.map((pid) => (groupAlive(pid) ? waitGroupGone(pid, 1000) : true)));
}

export interface ShutdownOptions {
  /** Runs after every live group is gone. Installing handlers replaces the default exit: exit here. */
  onShutdown: (signal: NodeJS.Signals) => void | Promise<void>;
}

const SHUTDOWN_SIGNALS: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

/**
 * On SIGINT, SIGTERM or SIGHUP: end every live group, then call onShutdown. A second signal while
 * shutting down skips the grace period. Returns a function that removes the handlers.
 */
export function installShutdownHandlers(opts: ShutdownOptions): () => void {
  let shuttingDown = false;
  const handler = (signal: NodeJS.Signals): void => {
    if (shuttingDown) {
      void killAllNow();
      return;
    }
    shuttingDown = true;
    void killAllLive("shutdown")
      .catch(() => undefined)
      .then(() => opts.onShutdown(signal));
  };
  for (const signal of SHUTDOWN_SIGNALS) process.on(signal, handler);
  return () => {
    for (const signal of SHUTDOWN_SIGNALS) process.off(signal, handler);
  };
}
