/**
 * Running a fake CLI exactly as its adapter says, for the per-CLI fake tests: argv and stdin from
 * the invocation, the stream parsed by the adapter, the fake's own recording read back.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "bun:test";
import type { Adapter, ExitOutcome, Invocation } from "../../src/backends/contract.ts";

export interface Ran extends ExitOutcome {
  stdout: string;
  record: { argv: string[]; stdin: string; env: Record<string, string>; cwd: string };
}

export async function runInvocation(
  fake: string,
  adapter: Adapter,
  inv: Invocation,
  cwd: string,
  env: Record<string, string>,
  recordDir: string,
): Promise<Ran> {
  const proc = Bun.spawn([fake, ...inv.args], {
    cwd,
    env,
    stdin: inv.stdin === undefined ? "ignore" : new TextEncoder().encode(inv.stdin),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  await proc.exited;
  const recFile = readdirSync(recordDir).find((f) => f.startsWith(`${adapter.backend}-`));
  return {
    ...outcomeOf(adapter, stdout, stderr, proc.exitCode, proc.signalCode === null ? null : String(proc.signalCode)),
    stdout,
    record: JSON.parse(readFileSync(join(recordDir, recFile ?? "missing"), "utf8")),
  };
}

/** What classify() sees of a finished fake: its events, the non-JSON stdout, the stderr. */
export function outcomeOf(adapter: Adapter, stdout: string, stderr: string, exitCode: number | null, signal: string | null): ExitOutcome {
  const lines = stdout.split("\n").filter((l) => l.trim() !== "");
  return { exitCode, signal, events: lines.flatMap((l) => adapter.parse(l)), stderrTail: stderr, rawStdoutTail: lines.filter((l) => !isJson(l)).join("\n") };
}

export function isJson(line: string): boolean {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}

/** Runs the fake with plain argv (help, version, subcommands). */
export async function runCli(fake: string, args: string[], env: Record<string, string>): Promise<{ code: number; out: string; err: string }> {
  const proc = Bun.spawn([fake, ...args], { env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  return { code: await proc.exited, out, err };
}

/** Waits for the fake to report (via FAKE_RECORD_DIR notes) that it reached a state. */
export async function waitForFile(path: string): Promise<string> {
  await waitFor(() => existsSync(path) && readFileSync(path, "utf8").trim() !== "");
  return readFileSync(path, "utf8");
}

export async function waitFor(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !cond(); i++) await Bun.sleep(10);
  expect(cond()).toBe(true);
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !readFileSync(`/proc/${pid}/stat`, "utf8").includes(") Z ");
  } catch {
    return false;
  }
}

export function eventKinds(events: readonly { kind: string }[]): string[] {
  return events.map((e) => e.kind);
}

/** The event kinds the adapter reads from a recorded real transcript (`<dir>/<name>.stdout`). */
export function transcriptKinds(adapter: Adapter, dir: string, name: string): string[] {
  return eventKinds(
    readFileSync(join(dir, `${name}.stdout`), "utf8")
      .split("\n")
      .flatMap((l) => adapter.parse(l)),
  );
}
