/**
 * Runs one child CLI to its end and reports exactly one reason for that end. The child gets its own
 * process group (`detached: true`, pgid = pid) so timeouts, stalls, cancellation and shutdown reach
 * its grandchildren too; Bun's own `timeout`/`signal` would kill only the leader and leave a
 * grandchild holding the stdout pipe, hanging the reader.
 */
import type { Subprocess } from "bun";
import { log } from "../log.ts";
import { groupAlive, settlesWithin, terminateGroup } from "./kill.ts";
import { DEFAULT_MAX_LINE_BYTES } from "./lines.ts";
import { registerLive, STOP_REASONS, type StopReason } from "./live.ts";
import { ByteSink, LineSink, type Sink } from "./sinks.ts";
import { ByteTail } from "./tail.ts";
import { watchGroup, type Watchdog } from "./watchdog.ts";
import { forgetGroup, recordGroup } from "./group-records.ts";

export type EndReason = "exit" | "timeout" | "stalled" | StopReason | "spawn_failed";

export interface ProcessOptions {
  /** Absolute path of the executable (see resolve.ts). */
  command: string;
  args: string[];
  cwd: string;
  /** The complete environment of the child (see env.ts); nothing else is inherited. */
  env: Record<string, string>;
  /** Written then closed. Undefined means no pipe at all: codex and opencode hang on an open one. */
  stdin?: string;
  /**
   * A stdin kept open for a conversation (an ACP agent speaks JSON-RPC both ways): called once,
   * right after the spawn, with the pipe. Wins over `stdin`.
   */
  stdinPipe?: (pipe: StdinPipe) => void;
  /**
   * The caller is done with the child (its conversation is over): the group is ended as for a
   * timeout, but the end is recorded as a normal "exit". For children that do not exit by
   * themselves when their stdin closes (claude-agent-acp, codex-acp).
   */
  done?: AbortSignal;
  timeoutMs: number;
  /** Between SIGTERM and SIGKILL. Default 2000. */
  graceMs?: number;
  /** No stdout/stderr activity for this long ends the run as "stalled". */
  stallMs?: number;
  /** Abort ends the run as signal.reason when that is a StopReason, else "cancelled". */
  signal?: AbortSignal;
  /** Each stdout line as it arrives. */
  onLine?: (line: string) => void;
  /**
   * Raw stdout chunks instead of lines, for output with no line structure (git's NUL-separated
   * `-z` records, where a newline may sit inside a path). onLine, rawStdoutTail and lines stay
   * empty. The chunk's memory may be reused after the call returns: copy what you keep.
   */
  onStdout?: (chunk: Uint8Array) => void;
  /**
   * Each stderr line as it arrives (opencode and gemini announce their retries only there). The
   * tail is kept either way; lines longer than 64 KiB are cut.
   */
  onStderrLine?: (line: string) => void;
  /** Default 8192. */
  stderrTailBytes?: number;
  /** Longer stdout lines are truncated. Default 4 MiB. */
  maxLineBytes?: number;
  /**
   * false: no watchdog ends the group if this server dies (watchdog.ts), for short read-only
   * children (git) where its spawn (~2-6 ms here) would be most of the cost. Default true.
   */
  dieWithServer?: boolean;
}

/** The child's stdin as a pipe: writes are queued in order; end() closes it. */
export interface StdinPipe {
  write(data: Uint8Array): void;
  end(): void;
}

export interface ProcessResult {
  exitCode: number | null;
  signal: string | null;
  endReason: EndReason;
  /** The error code of a failed spawn, e.g. ENOENT, EACCES. */
  spawnError?: string;
  stderrTail: string;
  /** The last ~4 KiB of stdout lines that were not JSON records. */
  rawStdoutTail: string;
  durationMs: number;
  pid?: number;
  /** stdout lines seen. */
  lines: number;
}

export const DEFAULT_GRACE_MS = 2000;
const DEFAULT_STDERR_TAIL = 8192;
const MAX_STDERR_LINE_BYTES = 64 * 1024;
/** After the group is gone, how long the pipes get to reach EOF before reading stops anyway. */
const DRAIN_MS = 250;
/** setTimeout fires at once beyond a signed 32-bit delay. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export async function runProcess(opts: ProcessOptions): Promise<ProcessResult> {
  const startedAt = performance.now();
  if (opts.signal?.aborted) return notStarted(stopReasonOf(opts.signal), startedAt);
  let proc: Subprocess<"ignore" | "pipe" | Uint8Array, "pipe", "pipe">;
  try {
    proc = Bun.spawn({
      cmd: [opts.command, ...opts.args],
      cwd: opts.cwd,
      env: opts.env,
      stdin: opts.stdinPipe ? "pipe" : opts.stdin === undefined ? "ignore" : new TextEncoder().encode(opts.stdin),
      stdout: "pipe",
      stderr: "pipe",
      detached: true,
    });
  } catch (error) {
    return spawnFailed(error, startedAt);
  }
  // The group must not outlive this server (watchdog.ts), nor a restart (group-records.ts).
  const guarded = opts.dieWithServer !== false;
  const watchdog = guarded ? watchGroup(proc.pid) : { disarm: () => undefined };
  if (guarded) recordGroup(proc.pid);
  if (opts.stdinPipe) opts.stdinPipe(pipeOf(proc.stdin));
  return supervise(proc, opts, startedAt, { watchdog, guarded });
}

/** A write to a child that already went away is dropped: its exit status tells the story. */
function pipeOf(sink: Subprocess<"pipe", "pipe", "pipe">["stdin"] | number | undefined | null): StdinPipe {
  if (typeof sink !== "object" || sink === null) return { write: () => undefined, end: () => undefined };
  let open = true;
  const guarded = (fn: () => unknown): void => {
    if (!open) return;
    try {
      const pending = fn();
      if (pending instanceof Promise) pending.catch(() => (open = false));
    } catch {
      open = false;
    }
  };
  return {
    write: (data) => guarded(() => (sink.write(data), sink.flush())),
    end: () => {
      guarded(() => sink.end());
      open = false;
    },
  };
}

/** Maps an abort reason to the recorded endReason. */
export function stopReasonOf(signal: AbortSignal): StopReason {
  const reason: unknown = signal.reason;
  return STOP_REASONS.find((r) => r === reason) ?? "cancelled";
}

async function supervise(
  proc: Subprocess<"ignore" | "pipe" | Uint8Array, "pipe", "pipe">,
  opts: ProcessOptions,
  startedAt: number,
  { watchdog, guarded }: { watchdog: Watchdog; guarded: boolean },
): Promise<ProcessResult> {
  const pid = proc.pid;
  const graceMs = opts.graceMs ?? DEFAULT_GRACE_MS;
  const out: Sink = opts.onStdout ? new ByteSink(opts.onStdout) : new LineSink(opts.onLine, opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES);
  const errTail = new ByteTail(opts.stderrTailBytes ?? DEFAULT_STDERR_TAIL);
  const errLines = opts.onStderrLine ? new LineSink(opts.onStderrLine, MAX_STDERR_LINE_BYTES) : undefined;
  const stop = deferred();
  let lastActivity = Date.now();
  const touch = (): void => {
    lastActivity = Date.now();
  };
  const reading = Promise.all([
    pump(proc.stdout, stop.promise, (chunk) => (touch(), out.push(chunk))),
    pump(proc.stderr, stop.promise, (chunk) => (touch(), errTail.push(chunk), errLines?.push(chunk))),
  ]);

  let leaderExited = false;
  const exited = proc.exited.then(() => {
    leaderExited = true;
  });
  let endReason: EndReason | undefined;
  let killing: Promise<void> | undefined;
  const timers = new Timers();
  const end = (reason: EndReason): Promise<void> => {
    if (endReason !== undefined || leaderExited) return killing ?? Promise.resolve();
    endReason = reason;
    timers.clear();
    killing = terminateGroup(pid, exited, graceMs);
    return killing;
  };

  // A registry stop resolves once this run is fully over (group gone, pipes read, result built).
  const finished = deferred();
  const unregister = registerLive(pid, (reason) => (void end(reason), finished.promise));
  timers.after(opts.timeoutMs, () => void end("timeout"));
  if (opts.stallMs !== undefined)
    watchStall(
      timers,
      opts.stallMs,
      () => lastActivity,
      () => void end("stalled"),
    );
  const onAbort = (): void => void end(stopReasonOf(opts.signal as AbortSignal));
  opts.signal?.addEventListener("abort", onAbort, { once: true });
  const onDone = (): void => void end("exit");
  if (opts.done?.aborted) onDone();
  else opts.done?.addEventListener("abort", onDone, { once: true });

  await exited;
  timers.clear();
  endReason ??= "exit";
  // A normal exit can leave members behind (a daemon, a grandchild holding stdout): end them too.
  killing ??= groupAlive(pid) ? terminateGroup(pid, exited, graceMs) : undefined;
  await killing;
  // The group is gone: nothing left to guard.
  watchdog.disarm();
  if (guarded) forgetGroup(pid);
  // Whatever still holds the pipes escaped the group (setsid): stop reading instead of hanging.
  await settlesWithin(reading, DRAIN_MS);
  stop.resolve();
  await reading;
  out.flush();
  errLines?.flush();
  opts.signal?.removeEventListener("abort", onAbort);
  opts.done?.removeEventListener("abort", onDone);
  unregister();
  finished.resolve();
  return {
    exitCode: proc.exitCode,
    signal: proc.signalCode === null ? null : String(proc.signalCode),
    endReason,
    stderrTail: errTail.text(),
    rawStdoutTail: out.rawText(),
    durationMs: Math.round(performance.now() - startedAt),
    pid,
    lines: out.lineCount(),
  };
}

/**
 * Reads a stream chunk by chunk until EOF or until `stopped` resolves; stopping cancels the reader,
 * which settles the pending read (a race per chunk would pile reactions onto one long-lived promise).
 */
async function pump(stream: ReadableStream<Uint8Array>, stopped: Promise<void>, onChunk: (chunk: Uint8Array) => void): Promise<void> {
  const reader = stream.getReader();
  let done = false;
  void stopped.then(() => {
    if (!done) reader.cancel().catch(() => undefined);
  });
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) return;
      onChunk(next.value);
    }
  } catch {
    // A read error ends this stream only; the exit status still decides the run.
  } finally {
    done = true;
    reader.releaseLock();
  }
}

/** Fires `onStall` once no activity was seen for `stallMs`, rescheduling itself from the last activity. */
function watchStall(timers: Timers, stallMs: number, last: () => number, onStall: () => void): void {
  const check = (): void => {
    const idle = Date.now() - last();
    if (idle >= stallMs) {
      onStall();
      return;
    }
    timers.after(stallMs - idle, check);
  };
  timers.after(stallMs, check);
}

class Timers {
  private handles = new Set<ReturnType<typeof setTimeout>>();

  after(ms: number, fn: () => void): void {
    const handle = setTimeout(
      () => {
        this.handles.delete(handle);
        fn();
      },
      Math.min(ms, MAX_TIMER_MS),
    );
    this.handles.add(handle);
  }

  clear(): void {
    for (const handle of this.handles) clearTimeout(handle);
    this.handles.clear();
  }
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => undefined;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

function notStarted(endReason: EndReason, startedAt: number): ProcessResult {
  return { exitCode: null, signal: null, endReason, stderrTail: "", rawStdoutTail: "", durationMs: Math.round(performance.now() - startedAt), lines: 0 };
}

function spawnFailed(error: unknown, startedAt: number): ProcessResult {
  const code = typeof error === "object" && error !== null && "code" in error ? String(error.code) : "UNKNOWN";
  log.debug(`spawn failed: ${String(error)}`);
  return { ...notStarted("spawn_failed", startedAt), spawnError: code };
}
