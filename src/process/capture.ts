/**
 * Runs a CLI briefly to read what it prints (version, help, auth status, model list). Probes never
 * get a pipe on stdin and end by timeout: a CLI that waits for input must not hang the doctor.
 */
import { tmpdir } from "node:os";
import { childEnv } from "./env.ts";
import { runProcess } from "./spawn.ts";

export interface Captured {
  ok: boolean;
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** Set when the process did not end on its own (timeout, spawn failure). */
  problem?: string;
  /** The probe ran out of time (as opposed to failing to start): its silence says nothing about the CLI. */
  timedOut?: boolean;
}

export const PROBE_TIMEOUT_MS = 8000;
const MAX_LINES = 4000;

export interface CaptureOptions {
  timeoutMs?: number;
  /** Default: the temp dir, so no project config near the cwd is picked up. */
  cwd?: string;
  /** Lines of stdout kept; what follows is dropped. */
  maxLines?: number;
}

export async function capture(path: string, args: string[], env: Record<string, string | undefined>, opts: CaptureOptions = {}): Promise<Captured> {
  const { timeoutMs = PROBE_TIMEOUT_MS, cwd = tmpdir(), maxLines = MAX_LINES } = opts;
  const lines: string[] = [];
  const result = await runProcess({
    command: path,
    args,
    cwd,
    env: childEnv(env),
    timeoutMs,
    graceMs: 500,
    stderrTailBytes: 16_384,
    onLine: (line) => {
      if (lines.length < maxLines) lines.push(line);
    },
  });
  const timedOut = result.endReason !== "exit" && !result.spawnError;
  const problem =
    result.endReason === "exit"
      ? undefined
      : result.spawnError
        ? `could not start (${result.spawnError})`
        : `timed out after ${Math.round(timeoutMs / 1000)} s`;
  return {
    ok: result.endReason === "exit" && result.exitCode === 0,
    exitCode: result.exitCode,
    stdout: lines.join("\n"),
    stderr: result.stderrTail,
    ...(problem ? { problem } : {}),
    ...(timedOut ? { timedOut } : {}),
  };
}

/** Strips colour codes some CLIs print even into a pipe (opencode's `auth list`). */
export function plain(text: string): string {
  return text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "");
}
