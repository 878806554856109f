/**
 * The stream of one attempt: run the prepared channel, parse each line with the backend, fold the
 * events as they arrive (keeping only a bounded log of them), report activity, and let the guards
 * end the run from what it says.
 */
import type { Adapter, AgentEvent } from "../backends/contract.ts";
import { EventFolder, type FoldedRun } from "../backends/fold.ts";
import { ActivityLine } from "./activity.ts";
import { EventLog } from "./event-log.ts";
import { GuardSet, type Guard, type GuardTrip } from "./guards.ts";
import type { Channel, TransportEnd } from "./transports/types.ts";

export interface StreamSpec {
  channel: Channel;
  parse: Adapter["parse"];
  guards: readonly Guard[];
  timeoutMs: number;
  stallMs?: number;
  /** The caller's cancel. */
  signal?: AbortSignal;
  onActivity?: (text: string) => void;
  onEvent?: (event: AgentEvent) => void;
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
  const folded = (): FoldedRun => folder.result();
  const activity = new ActivityLine();
  const onEvent = (event: AgentEvent): void => {
    log.push(event);
    folder.push(event);
    spec.onEvent?.(event);
    const text = activity.see(event, () => folded().usage);
    if (text) spec.onActivity?.(text);
    const stop = guards.see(event, folded);
    if (stop) abort.abort(stop);
  };
  const end = await spec.channel.run({
    timeoutMs: spec.timeoutMs,
    ...(spec.stallMs ? { stallMs: spec.stallMs } : {}),
    signal: spec.signal ? AbortSignal.any([spec.signal, abort.signal]) : abort.signal,
    onLine: (line) => {
      for (const event of spec.parse(line)) onEvent(event);
    },
  });
  const trip = guards.verdict();
  return { end, run: folder.result(), events: log.events, ...(trip ? { trip } : {}) };
}
