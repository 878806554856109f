/**
 * Runs git through the process layer like every other child: its own process group (the group
 * kill also reaches what git starts: fsmonitor hooks, filters), registered among the live groups
 * so a shutdown ends a slow `git status` too, stderr kept as a bounded tail, and stdout collected
 * only up to a cap — past it the run is ended and reported, never buffered on.
 */
import { lstatSync } from "node:fs";
import { runProcess, type ProcessResult } from "../process/spawn.ts";

export type GitOutput = { ok: true; value: string } | { ok: false; reason: "not_git" | "timeout" | "error"; message: string };

export interface GitRunOptions {
  timeoutMs: number;
  /** stdout kept at most; more ends the run as an error. */
  maxBytes: number;
  /** The complete environment (see gitEnv). */
  env: Record<string, string>;
}

export async function runGit(cwd: string, args: string[], opts: GitRunOptions): Promise<GitOutput> {
  const out = new CappedBytes(opts.maxBytes);
  const result = await runProcess({
    command: "git",
    args,
    cwd,
    env: opts.env,
    timeoutMs: opts.timeoutMs,
    // git with optional locks off writes nothing, so there is nothing to let it finish: kill at once.
    graceMs: 0,
    signal: out.overflow.signal,
    onStdout: (chunk) => out.push(chunk),
  });
  return readResult(cwd, args, opts, result, out);
}

function readResult(cwd: string, args: string[], opts: GitRunOptions, result: ProcessResult, out: CappedBytes): GitOutput {
  const what = `git ${args.find((a) => !a.startsWith("-")) ?? ""}`.trim();
  // Before the exit check: git may have exited on its own after the cap was crossed.
  if (out.overflowed) return { ok: false, reason: "error", message: `${what} printed more than ${opts.maxBytes} bytes` };
  switch (result.endReason) {
    case "exit":
      break;
    case "spawn_failed":
      // A missing cwd is "not a repository"; a missing git binary is an error.
      return { ok: false, reason: result.spawnError === "ENOENT" && !exists(cwd) ? "not_git" : "error", message: `could not start git (${result.spawnError ?? "spawn failed"})` };
    case "timeout":
      return { ok: false, reason: "timeout", message: `${what} took longer than ${opts.timeoutMs} ms` };
    default:
      return { ok: false, reason: "error", message: `${what} was stopped (${result.endReason})` };
  }
  if (result.exitCode === 0) return { ok: true, value: out.text() };
  const stderr = result.stderrTail.trim();
  if (/not a git repository/i.test(stderr)) return { ok: false, reason: "not_git", message: stderr };
  return { ok: false, reason: "error", message: stderr || `git exited with ${result.exitCode ?? result.signal ?? "?"}` };
}

/** Bytes up to a cap; the first byte past it aborts the run through `overflow`. */
class CappedBytes {
  readonly overflow = new AbortController();
  private readonly parts: Uint8Array[] = [];
  private size = 0;

  constructor(private readonly maxBytes: number) {}

  get overflowed(): boolean {
    return this.overflow.signal.aborted;
  }

  push(chunk: Uint8Array): void {
    if (this.overflowed) return;
    if (this.size + chunk.length > this.maxBytes) return this.overflow.abort("cancelled");
    // Copied: the reader may reuse the chunk's memory.
    this.parts.push(chunk.slice());
    this.size += chunk.length;
  }

  text(): string {
    // Decoded once, whole: a character split across chunks stays intact (as Response.text() did).
    return new TextDecoder("utf-8", { fatal: false }).decode(Buffer.concat(this.parts, this.size));
  }
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
