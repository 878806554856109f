/**
 * Delegates do not outlive their server. Every child group gets a watchdog: a tiny `sh` in its own
 * session holding the read end of a pipe whose only write end is this server's (close-on-exec, so
 * no other child inherits it). When the server dies by any means — SIGKILL included, where no
 * handler runs — the kernel closes that end, the watchdog's `read` returns, and it ends the group:
 * SIGTERM, then SIGKILL after a grace. This works the same on Linux and macOS (PR_SET_PDEATHSIG is
 * per-thread and not reachable from Bun; kqueue's NOTE_EXIT is not either).
 *
 * The watchdog is not in the group it guards (the group's own kill must not take it, and it must
 * not hold the group's stdout), and it is disarmed by SIGKILL before its pipe is closed, so a
 * normal end never signals anything.
 */
import { closeSync } from "node:fs";
import { log } from "../log.ts";

/** Seconds between the watchdog's SIGTERM and SIGKILL, as the normal kill path's grace. */
const GRACE_SEC = 2;

// `kill -SIG -PGID`, not `kill -SIG -- -PGID`: dash takes "--" for a pid.
const SCRIPT = `read _ <&3; kill -TERM -$1 2>/dev/null || exit 0; sleep ${GRACE_SEC}; kill -KILL -$1 2>/dev/null; exit 0`;

export interface Watchdog {
  /** Ends the watchdog without it signalling anything; then closes our end of its pipe. */
  disarm(): void;
}

const NONE: Watchdog = { disarm: () => undefined };

/** Starts the watchdog of the group led by `pgid`; a watchdog that cannot start is logged, never fatal. */
export function watchGroup(pgid: number): Watchdog {
  let proc: ReturnType<typeof Bun.spawn>;
  try {
    proc = Bun.spawn({
      cmd: ["/bin/sh", "-c", SCRIPT, "orchestrate-watchdog", String(pgid)],
      stdio: ["ignore", "ignore", "ignore", "pipe"],
      detached: true,
      env: { PATH: "/usr/bin:/bin" },
    });
  } catch (error) {
    log.warn(`could not start the watchdog of process group ${pgid}: ${String(error)}`);
    return NONE;
  }
  // Neither keeps a short-lived command (orchestrate run) waiting at exit: disarm ends it anyway.
  proc.unref();
  const end = proc.stdio[3];
  let disarmed = false;
  return {
    disarm() {
      if (disarmed) return;
      disarmed = true;
      // Killed first: once our end closes, its read returns and it would signal the group.
      try {
        process.kill(proc.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
      if (typeof end === "number") {
        try {
          closeSync(end);
        } catch {
          // Already closed.
        }
      }
    },
  };
}
