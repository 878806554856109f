/**
 * Shared pieces of the reliability suites: the STRESS switch, process liveness from /proc, a
 * bounded-concurrency runner, and readers for typed tool errors.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ToolReply } from "../../fakes/lib/mcp-client.ts";
import { git } from "../../fakes/lib/sandbox.ts";

export const STRESS = process.env.STRESS === "1";
export const STEERED_FAKE = join(import.meta.dir, "fixtures", "steered-fake.ts");

/** `normal` in the default (CI) mode, `stress` under STRESS=1. */
export function scale(normal: number, stress: number): number {
  return STRESS ? stress : normal;
}

/**
 * True when `pid` runs and is not a zombie. PID 1 in this container does not reap, so a killed
 * orphan stays a zombie forever: it holds no resources and cannot run, so it is not a survivor.
 */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    return state !== "Z" && state !== "X";
  } catch {
    return false;
  }
}

export async function waitFor<T>(probe: () => T | undefined, ms = 20_000, what = "a condition"): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(25);
  }
}

/** Pids a fake appended to <records>/<name> (hangers, grandchildren). */
export function recordedPids(records: string, name: string): number[] {
  const file = join(records, name);
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8").split("\n").filter(Boolean).map(Number);
}

/** Runs `tasks` with at most `limit` in flight; results keep the tasks' order. */
export async function pool<T>(limit: number, tasks: (() => Promise<T>)[]): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await (tasks[i] as () => Promise<T>)();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}

export type ToolError = { code: string; message: string; hint?: string };

export function toolError(reply: ToolReply): ToolError | undefined {
  return reply.structuredContent?.error as ToolError | undefined;
}

export type Attempt = { agent: string; outcome: string; fellBack: boolean; treeChanged?: boolean | null; reason?: string };

export function attemptsOf(reply: ToolReply): Attempt[] {
  return (reply.structuredContent?.attempts ?? []) as Attempt[];
}

/** Writes a config with the mode the hardened loader demands. */
export function writePrivate(path: string, text: string): void {
  writeFileSync(path, text, { mode: 0o600 });
  chmodSync(path, 0o600);
}

export function b64(text: string): string {
  return Buffer.from(text, "utf8").toString("base64");
}

/** Milliseconds since `start`, rounded, for the suites' timing notes on stderr. */
export function elapsed(start: number): number {
  return Math.round(performance.now() - start);
}
