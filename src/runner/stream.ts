/**
 * The stream of one attempt: run the prepared channel, parse each line with the backend (stdout,
 * and stderr for CLIs that announce their retries there), fold the events as they arrive (keeping
 * only a bounded log of them), report activity, and let the guards end the run from what it says —
 * or from what it has not said for a while, for guards that trip on silence.
 */
import type { Adapter, AgentEvent } from "../backends/contract.ts";
import { EventFolder, type FoldedRun } from "../backends/fold.ts";
import { ActivityLine } from "./activity.ts";
import { EventLog } from "./event-log.ts";
import { GuardSet, type Guard, type GuardTrip } from "./guards.ts";
import type { Channel, StopReason, TransportEnd } from "./transports/types.ts";

export interface StreamSpec {
  channel: Channel;
  parse: Adapter["parse"];
  /** The backend's reading of a diagnostics line, when it has one. */
  parseStderr?: Adapter["parseStderr"];
  guards: readonly Guard[];
  timeoutMs: number;
  stallMs?: number;
  /** The caller's cancel. */
  signal?: AbortSignal;
  onActivity?: (text: string) => void;
  onEvent?: (event: AgentEvent) => void;
  /** The clock the guards read. Default Date.now. */
  now?: () => number;
}

export interface Streamed {
  end: TransportEnd;
  run: FoldedRun;
  events: AgentEvent[];
  /** The guard verdict: the first guard, in order, that tripped. */
  trip?: GuardTrip;
}

export async function streamAttempt(spec: StreamSpec): Promise<Streamed> {
  const log = new EventLog();
  const folder = new EventFolder();
  const guards = new GuardSet(spec.guards);
  const abort = new AbortController();
  const now = spec.now ?? Date.now;
  const folded = (): FoldedRun => folder.result();
  const activity = new ActivityLine();
  const stop = (reason: StopReason | undefined): void => {
    if (reason && !abort.signal.aborted) abort.abort(reason);
  };
  const silence = new SilenceTimer(guards, now, stop);
  const onEvent = (event: AgentEvent): void => {
    log.push(event);
    folder.push(event);
    spec.onEvent?.(event);
    const text = activity.see(event, () => folded().usage);
    if (text) spec.onActivity?.(text);
    stop(guards.see(event, folded, now()));
    silence.rearm();
  };
  const { parseStderr } = spec;
  try {
    const end = await spec.channel.run({
      timeoutMs: spec.timeoutMs,
      ...(spec.stallMs ? { stallMs: spec.stallMs } : {}),
      signal: spec.signal ? AbortSignal.any([spec.signal, abort.signal]) : abort.signal,
      onLine: (line) => {
        for (const event of spec.parse(line)) onEvent(event);
      },
      ...(parseStderr ? { onStderrLine: (line: string) => parseStderr(line).forEach(onEvent) } : {}),
    });
    const trip = guards.verdict();
    return { end, run: folder.result(), events: log.events, ...(trip ? { trip } : {}) };
  } finally {
    silence.clear();
  }
}

/** One timer at the guards' next due instant, re-set after every event; firing lets them trip on silence. */
class SilenceTimer {
  private handle: ReturnType<typeof setTimeout> | undefined;
  private at: number | undefined;

  constructor(
    private readonly guards: GuardSet,
    private readonly now: () => number,
    private readonly stop: (reason: StopReason | undefined) => void,
  ) {}

  rearm(): void {
    const due = this.guards.nextDue();
    if (due === this.at) return;
    this.clear();
    if (due === undefined) return;
    this.at = due;
    this.handle = setTimeout(
      () => {
        this.handle = undefined;
        this.at = undefined;
        this.stop(this.guards.tick(this.now()));
        this.rearm();
      },
      Math.max(0, due - this.now()),
    );
  }

  clear(): void {
    if (this.handle) clearTimeout(this.handle);
    this.handle = undefined;
    this.at = undefined;
  }
}
