/**
 * The wait before a resume whose session file bears this minute's name (runner/session-minute.ts
 * decides; AcpProfile.sessionFiles says how the agent names its files). It comes before the agent
 * is started, so nothing else bounds it: it is said on the progress line (a `wait` record), cut
 * short by a cancel, a guard or shutdown, and counted against the run's wall time — a wait the
 * wall time cannot hold ends the run as timed out when the time is up, as a run would.
 */
import { acpLine } from "../../backends/acp/index.ts";
import type { AcpProfile, Env } from "../../backends/contract.ts";
import { stopReasonOf } from "../../process/spawn.ts";
import { pause } from "../rerun.ts";
import { listSessionFiles, loadWaitMs, minuteMsOf } from "../session-minute.ts";
import type { EndReason, StreamIO, TransportEnd } from "./types.ts";

export interface MinuteHold {
  /** The profile's declaration; absent: the agent's files are not named by the minute. */
  files: AcpProfile["sessionFiles"];
  /** The session to resume; absent: a new session, nothing to wait for. */
  sessionId: string | undefined;
  /** The environment the agent starts with: where its files are, and the minute's length. */
  env: Env;
  home: string;
  /** Whose minute, for the progress line ("gemini"). */
  backend: string;
  io: StreamIO;
}

/** The stream to run the agent with (its wall time less the wait), or how the run ended while it waited. */
export async function holdForSessionMinute(hold: MinuteHold): Promise<{ io: StreamIO } | { end: TransportEnd }> {
  const { io, files, sessionId } = hold;
  if (!files || !sessionId) return { io };
  const waitMs = loadWaitMs(files, listSessionFiles(files, hold.env, hold.home), sessionId, { now: Date.now(), minuteMs: minuteMsOf(hold.env) });
  if (waitMs === 0) return { io };
  io.onLine(acpLine({ acp: "wait", seconds: Math.ceil(waitMs / 1000), why: `for ${hold.backend}'s session minute to turn` }));
  const started = Date.now();
  const held = Math.min(waitMs, io.timeoutMs);
  if (!(await pause(held, io.signal))) return { end: heldEnd(stopReasonOf(io.signal)) };
  if (held < waitMs) return { end: heldEnd("timeout") };
  return { io: { ...io, timeoutMs: Math.max(1, io.timeoutMs - (Date.now() - started)) } };
}

/** A run that ended before its agent started: no exit, no output. */
function heldEnd(endReason: EndReason): TransportEnd {
  return { endReason, exitCode: null, signal: null, stderrTail: "", rawStdoutTail: "" };
}
