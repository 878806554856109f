/**
 * A resume kept out of the minute its session's file is named by (AcpProfile.sessionFiles; gemini
 * 0.61 names a session's file by the UTC minute it was opened, and its session/load first opens
 * the file of *this* minute's name afresh: in the session's own minute that is the session's file,
 * emptied before the agent looks for it). The files are the agent's own, and orchestrate never
 * writes, renames or deletes another program's file: the runner only lists the directory, and when
 * this minute's name is taken by the session it waits for the minute to turn, plus a margin,
 * before the agent starts (docs/acp.md).
 *
 * The decision is pure and reads a clock it is given. Its one seam is the length of a minute
 * (ORCHESTRATE_TEST_MINUTE_MS, unset outside tests): fakes/acp names its gemini session files by
 * the same minutes, read from the same variable in the environment the agent is started with, so
 * an end-to-end test waits seconds instead of a real minute.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { AcpProfile, Env } from "../backends/contract.ts";
import { log } from "../log.ts";

type SessionFiles = NonNullable<AcpProfile["sessionFiles"]>;

export const MINUTE_MS = 60_000;
/** After the minute turned: the agent reads the same clock, but its load is not instantaneous. */
export const MINUTE_MARGIN_MS = 1000;
export const MINUTE_SEAM = "ORCHESTRATE_TEST_MINUTE_MS";

export interface MinuteClock {
  now: number;
  /** How long a minute lasts: MINUTE_MS but in a test (minuteMsOf). */
  minuteMs: number;
}

/** The minute a file name carries, `2026-12-07T11-58` (UTC, as gemini writes it): minute ⌊at / minuteMs⌋. */
export function minuteName(at: number, minuteMs = MINUTE_MS): string {
  return new Date(Math.floor(at / minuteMs) * MINUTE_MS).toISOString().slice(0, 16).replace(/:/g, "-");
}

/**
 * How long to wait before the agent may load this session: 0 unless a file of the session bears
 * this minute's name (the session's own, or an earlier load's in this minute), else until the
 * minute has turned, plus the margin.
 */
export function loadWaitMs(files: SessionFiles, listed: readonly string[], sessionId: string, clock: MinuteClock): number {
  const taken = files.name(sessionId, minuteName(clock.now, clock.minuteMs));
  if (!listed.includes(taken)) return 0;
  const turns = (Math.floor(clock.now / clock.minuteMs) + 1) * clock.minuteMs;
  return turns - clock.now + MINUTE_MARGIN_MS;
}

/** The names in every `<root>/<project>/chats` directory: read, never touched. Best effort. */
export function listSessionFiles(files: SessionFiles, env: Env, home: string): string[] {
  const root = files.root(env, home);
  try {
    if (!existsSync(root)) return [];
    return readdirSync(root).flatMap((project) => {
      const chats = join(root, project, "chats");
      return existsSync(chats) ? readdirSync(chats) : [];
    });
  } catch (error) {
    log.debug(`session files not listed before a load: ${String(error)}`);
    return [];
  }
}

/** The minute's length in this environment: a positive ORCHESTRATE_TEST_MINUTE_MS, else a real minute. */
export function minuteMsOf(env: Env): number {
  const seam = Number(env[MINUTE_SEAM]);
  return Number.isFinite(seam) && seam > 0 ? seam : MINUTE_MS;
}
