/**
 * The quota a CLI wrote beside its stream during a run (Adapter.quotaFile; codex: its session
 * rollout's `rate_limits`). The backend says where and how to read; this module does the I/O,
 * best effort: only a file written since the run started counts (an older one is an earlier
 * observation, not this run's), and only its last `tailBytes` are read (docs/design.md, "Quota").
 */
import { closeSync, openSync, readdirSync, readSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { Env, QuotaEvent, QuotaFile } from "../backends/contract.ts";
import { log } from "../log.ts";

export function quotaFromFile(file: QuotaFile, env: Env, sinceMs: number, now = new Date()): QuotaEvent[] {
  try {
    const newest = newestWritten(file, env, sinceMs, now);
    return newest ? file.read(tailOf(newest, file.tailBytes)) : [];
  } catch (error) {
    log.debug("quota file not read", error);
    return [];
  }
}

function newestWritten(file: QuotaFile, env: Env, sinceMs: number, now: Date): string | undefined {
  for (const dir of file.dirs({ env, home: env.HOME ?? homedir(), now })) {
    const written = filesIn(dir)
      .filter((name) => file.matches(name))
      .map((name) => ({ path: join(dir, name), mtime: mtimeOf(join(dir, name)) }))
      .filter((f) => f.mtime >= sinceMs)
      .sort((a, b) => b.mtime - a.mtime);
    if (written[0]) return written[0].path;
  }
  return undefined;
}

function filesIn(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function mtimeOf(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return Number.NEGATIVE_INFINITY;
  }
}

/** The last `bytes` of the file as text (its first line may be cut; the reader skips what does not parse). */
function tailOf(path: string, bytes: number): string {
  const fd = openSync(path, "r");
  try {
    const size = statSync(path).size;
    const length = Math.min(size, bytes);
    const buffer = Buffer.alloc(length);
    readSync(fd, buffer, 0, length, size - length);
    return buffer.toString("utf8");
  } finally {
    closeSync(fd);
  }
}
