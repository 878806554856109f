/**
 * Signals for a child's process group. Every child is spawned detached, so its pid is also its
 * process-group id and `kill(-pid)` reaches its grandchildren too (execa's model: the group first,
 * the direct child when the group kill fails).
 */
import { readdirSync, readFileSync } from "node:fs";

export type KillSignal = "SIGTERM" | "SIGKILL";

/** Sends `signal` to the group led by `pid`; falls back to the child itself. False if neither exists. */
export function signalGroup(pid: number, signal: KillSignal): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    // ESRCH (group gone) or EPERM: the direct child may still be reachable.
  }
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false;
  }
}

const HAS_PROC = (() => {
  try {
    readFileSync("/proc/self/stat");
    return true;
  } catch {
    return false;
  }
})();

/**
 * Live (non-zombie) members of the process group `pgid`. Zombies are excluded on purpose: an
 * orphaned grandchild is reparented to PID 1, and in containers PID 1 often never reaps, so a
 * zombie would look "alive" to kill(-pgid, 0) forever. Without /proc (macOS) kill(-pgid, 0) is
 * the best available answer, and launchd does reap.
 */
export function groupMembers(pgid: number): number[] {
  if (!HAS_PROC) return groupSignalable(pgid) ? [pgid] : [];
  const members: number[] = [];
  for (const name of safeReaddir("/proc")) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid <= 0) continue;
    const stat = procStat(pid);
    if (stat && stat.pgid === pgid && stat.state !== "Z" && stat.state !== "X") members.push(pid);
  }
  return members;
}

/**
 * kill(-pgid, 0) failing proves the group is empty — the common case after a normal exit — without
 * the /proc scan, which reads every process on the machine. Only a group that still answers the
 * signal is scanned, to tell live members from unreaped zombies.
 */
export function groupAlive(pgid: number): boolean {
  if (!groupSignalable(pgid)) return false;
  return groupMembers(pgid).length > 0;
}

/** True when `pid` exists and is not a zombie. */
export function processAlive(pid: number): boolean {
  if (!HAS_PROC) return signalable(pid);
  const stat = procStat(pid);
  return stat !== undefined && stat.state !== "Z" && stat.state !== "X";
}

export function procStat(pid: number): { state: string; pgid: number } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // The command name is parenthesised and may contain spaces or ")"; fields resume after the last ")".
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  return { state: fields[0] ?? "", pgid: Number(fields[2]) };
}

function groupSignalable(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

function signalable(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function safeReaddir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves true when `promise` settles within `ms`, false otherwise; never leaves a timer behind. */
export function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    promise.then(
      () => {
        clearTimeout(timer);
        resolve(true);
      },
      () => {
        clearTimeout(timer);
        resolve(true);
      },
    );
  });
}

/** Polls until the group has no live member or `ms` passed. Only used on kill paths. */
export async function waitGroupGone(pgid: number, ms: number, pollMs = 20): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (!groupAlive(pgid)) return true;
    const left = deadline - Date.now();
    if (left <= 0) return false;
    await sleep(Math.min(pollMs, left));
  }
}

/** How long to wait for SIGKILLed members to be torn down before giving up on them. */
const KILL_SETTLE_MS = 1000;

/**
 * Ends a group: SIGTERM, then SIGKILL once `graceMs` passed with any member still alive (the leader
 * exiting early is not enough: a grandchild may ignore SIGTERM), then a SIGKILL sweep after the
 * leader's exit for whatever was left.
 */
export async function terminateGroup(pid: number, exited: Promise<unknown>, graceMs: number): Promise<void> {
  const deadline = Date.now() + graceMs;
  signalGroup(pid, "SIGTERM");
  const leaderGone = await settlesWithin(exited, graceMs);
  const allGone = leaderGone && (await waitGroupGone(pid, deadline - Date.now()));
  if (!allGone) signalGroup(pid, "SIGKILL");
  await exited;
  await sweepGroup(pid);
}

/** SIGKILL to the group after the leader exited, for grandchildren that outlived it; waits for them. */
export async function sweepGroup(pid: number): Promise<void> {
  if (!groupAlive(pid)) return;
  signalGroup(pid, "SIGKILL");
  await waitGroupGone(pid, KILL_SETTLE_MS);
}
