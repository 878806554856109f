/**
 * The seam between one attempt and the thing that does the work. A transport prepares a channel
 * to a delegate (finds it, checks it can answer, completes the request), and the channel runs it
 * once: lines in as they arrive, exactly one recorded reason for the end out. The runner sees only
 * this; a subprocess exists only inside transports/cli.ts, an HTTP endpoint only inside
 * transports/http.ts (whose channel also reports the response's status and headers: HttpEnd).
 */
import type { Adapter, Env, FailureClass, RunRequest } from "../../backends/contract.ts";
import type { AgentConfig } from "../../config/types.ts";

/** Reasons an outside party (the caller, a guard, shutdown) ends a run. */
export type StopReason = "cancelled" | "budget_exceeded" | "shutdown";

/** Exactly one reason per end, execa's model: it ended by itself, or who ended it. */
export type EndReason = "exit" | "timeout" | "stalled" | StopReason | "spawn_failed";

export interface TransportEnd {
  endReason: EndReason;
  /** cli: the exit status; null when signalled or never started. */
  exitCode: number | null;
  signal: string | null;
  /** Why it could not start (cli: the spawn error code, e.g. ENOENT). */
  startError?: string;
  /** The last few KiB of the delegate's diagnostics (cli: stderr). */
  stderrTail: string;
  /** The last lines of its output that were not JSON records. */
  rawStdoutTail: string;
}

/**
 * An HTTP exchange's end. endReason "exit" = the response arrived and its body ended (any status);
 * "spawn_failed" = no response ever arrived (startError says why: refused, DNS, TLS).
 */
export interface HttpEnd extends TransportEnd {
  /** null when no response arrived. */
  status: number | null;
  /** The response headers, lower-cased (retry-after, cost headers). */
  headers: Record<string, string>;
  /** The body broke off with an error after the response began. */
  readError?: string;
}

export interface HttpChannel extends Channel {
  run(io: StreamIO): Promise<HttpEnd>;
}

export interface StreamIO {
  timeoutMs: number;
  /** No output for this long ends the run as "stalled". */
  stallMs?: number;
  /** Aborting ends the run; a StopReason as the abort reason is recorded as the end. */
  signal: AbortSignal;
  onLine(line: string): void;
  /** Each diagnostics line (cli: stderr) as it arrives, for backends that read it mid-run. */
  onStderrLine?(line: string): void;
}

/** A prepared delegate, run once. */
export interface Channel {
  /** What is reached (cli: the executable's absolute path), reported as the attempt's commandPath. */
  readonly target: string;
  run(io: StreamIO): Promise<TransportEnd>;
}

export interface PrepareInput {
  agent: AgentConfig;
  adapter: Adapter;
  request: RunRequest;
  /** orchestrate's environment; the agent's own env is laid over it. */
  env: Env;
}

/**
 * How the runner reads what a channel streams, when the transport speaks a language of its own
 * (ACP's records) rather than the backend's headless output.
 */
export type Speaker = Pick<Adapter, "parse" | "classify" | "explain">;

/** Ready to run, with the request completed; or refused before anything started, as a clean failure. */
export type Prepared =
  | { ok: true; channel: Channel; request: RunRequest; speaks?: Speaker }
  | { ok: false; failure: FailureClass; reason: string; target?: string };

export interface Transport {
  readonly kind: string;
  prepare(input: PrepareInput): Promise<Prepared>;
}
