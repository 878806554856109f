/**
 * A record of every live child group on disk, so the next server can end one a dead server left
 * behind before it says anything about that server's jobs: the watchdog (watchdog.ts) should
 * already have ended it, but a watchdog can be killed too. One small file per group under the
 * store's directory, written when the group starts and removed when it is gone. A group is ended
 * only when its recorded owner is dead and its leader still has the recorded start time, so a
 * recycled pid is never signalled.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { log } from "../log.ts";
import { signalGroup } from "./kill.ts";
import { processStartMs } from "./start-time.ts";

interface GroupRecord {
  pid: number;
  startedAt: number;
  ownerPid: number;
  ownerStartedAt: number;
}

let directory: string | undefined;
let ownerStartedAt = Date.now();

/** Where records go (the store's directory); until set, nothing is recorded. */
export function recordGroupsIn(dir: string, ownerStart: number): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  directory = dir;
  ownerStartedAt = ownerStart;
}

export function recordGroup(pid: number): void {
  if (!directory) return;
  const startedAt = processStartMs(pid);
  if (startedAt === undefined) return;
  const record: GroupRecord = { pid, startedAt, ownerPid: process.pid, ownerStartedAt };
  try {
    writeFileSync(join(directory, `${pid}.json`), JSON.stringify(record), { mode: 0o600 });
  } catch (error) {
    log.debug(`could not record process group ${pid}: ${String(error)}`);
  }
}

export function forgetGroup(pid: number): void {
  if (directory) rmSync(join(directory, `${pid}.json`), { force: true });
}

/** Two readings of one process's start agree to this: /proc's are identical, ps's whole seconds. */
const SAME_START_MS = 1000;

/**
 * Ends (SIGKILL) every recorded group whose owner is not alive and whose leader is still the
 * process that was recorded; forgets every record of a dead owner. Returns the pids ended.
 */
export function endOrphanGroups(ownerAlive: (pid: number, startedAt: number) => boolean): number[] {
  if (!directory) return [];
  const ended: number[] = [];
  for (const name of safeList(directory)) {
    const path = join(directory, name);
    const record = readRecord(path);
    if (record && ownerAlive(record.ownerPid, record.ownerStartedAt)) continue;
    if (record && sameProcess(record) && signalGroup(record.pid, "SIGKILL")) {
      log.warn(`ended process group ${record.pid}, left running by orchestrate server ${record.ownerPid} that died`);
      ended.push(record.pid);
    }
    rmSync(path, { force: true });
  }
  return ended;
}

function sameProcess(record: GroupRecord): boolean {
  const now = processStartMs(record.pid);
  return now !== undefined && Math.abs(now - record.startedAt) <= SAME_START_MS;
}

function readRecord(path: string): GroupRecord | undefined {
  try {
    const r: unknown = JSON.parse(readFileSync(path, "utf8"));
    if (typeof r !== "object" || r === null || !("pid" in r && "startedAt" in r && "ownerPid" in r && "ownerStartedAt" in r)) return undefined;
    const { pid, startedAt, ownerPid, ownerStartedAt: ownerStart } = r;
    if (typeof pid !== "number" || typeof startedAt !== "number" || typeof ownerPid !== "number" || typeof ownerStart !== "number") return undefined;
    return { pid, startedAt, ownerPid, ownerStartedAt: ownerStart };
  } catch {
    return undefined;
  }
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir).filter((n) => n.endsWith(".json"));
  } catch {
    return [];
  }
}
