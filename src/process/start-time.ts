/**
 * When a process started, to tell a live owner from a stranger that reused its pid (after a
 * reboot, pids start over). Linux reads /proc; elsewhere `ps -o lstart=`. undefined when unknown,
 * which callers treat as "cannot tell", never as proof of death.
 */
import { readFileSync } from "node:fs";
import { spawnSync } from "node:child_process";

/** Clock ticks per second of /proc/<pid>/stat's starttime; 100 on every Linux orchestrate runs on. */
const CLK_TCK = 100;

export function processStartMs(pid: number): number | undefined {
  return process.platform === "linux" ? fromProc(pid) : fromPs(pid);
}

function fromProc(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may hold spaces and parentheses: count fields after the last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[19]);
    const btime = Number(/^btime (\d+)$/m.exec(readFileSync("/proc/stat", "utf8"))?.[1]);
    if (!Number.isFinite(ticks) || !Number.isFinite(btime)) return undefined;
    return btime * 1000 + (ticks / CLK_TCK) * 1000;
  } catch {
    return undefined;
  }
}

function fromPs(pid: number): number | undefined {
  const out = spawnSync("ps", ["-o", "lstart=", "-p", String(pid)], { encoding: "utf8", timeout: 2000 });
  const when = Date.parse(out.stdout?.trim() ?? "");
  return Number.isFinite(when) ? when : undefined;
}

/** /proc's boot time has whole-second precision: a start this close to the owner's is the owner. */
const SLACK_MS = 2000;

/**
 * The recorded owner is alive only if its pid answers *and* that process started no later than the
 * owner did: a process that started after the owner recorded itself is another program on a reused pid.
 */
export function ownerAlive(pid: number, ownerStartedAt: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const started = processStartMs(pid);
  return started === undefined || started <= ownerStartedAt + SLACK_MS;
}
