/**
 * The clock of a fake's failure paths. Each fake replays its CLI's recorded retry schedule
 * (research/retries-and-trust.md: when each retry line appears, how long the CLI waits, when it
 * gives up) in real time, so a test can see what the real CLI would make it wait for; tests that
 * need speed shrink the whole schedule at once, keeping its sequence and its first signal.
 *
 *   FAKE_RETRY_SCALE   multiplies every recorded delay of a failure path (a CLI's backoff, the
 *                      provider's retry-after, a slow failure's wait): 1 (default) is the real
 *                      schedule, 0.05 makes it 20× faster
 *   FAKE_RETRY_AFTER   the provider's `retry-after` on a 429, in seconds (default 1, as the
 *                      research's loopback server sent it; empty = no header)
 */
import { appendFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";

/** FAKE_RETRY_SCALE (or a fake's own older knob, checked first), as a factor: 1 when unset or unreadable. */
export function retryScale(...names: string[]): number {
  for (const name of [...names, "FAKE_RETRY_SCALE"]) {
    const raw = process.env[name];
    if (raw === undefined || raw === "") continue;
    const scale = Number(raw);
    if (Number.isFinite(scale) && scale >= 0) return scale;
  }
  return 1;
}

/** Waits a recorded delay, scaled by FAKE_RETRY_SCALE. */
export function waitRecorded(ms: number, ...names: string[]): Promise<void> {
  const scaled = ms * retryScale(...names);
  return new Promise((resolve) => setTimeout(resolve, scaled));
}

/** The 429's `retry-after` in seconds, or undefined for none (FAKE_RETRY_AFTER=""). */
export function retryAfterSec(): number | undefined {
  const raw = process.env.FAKE_RETRY_AFTER;
  if (raw === undefined) return 1;
  if (raw.trim() === "") return undefined;
  const sec = Number(raw);
  return Number.isFinite(sec) && sec >= 0 ? sec : 1;
}

/**
 * Notes that the fake just wrote a retry signal (the line a supervisor can act on), one epoch-ms
 * line per signal in $FAKE_RECORD_DIR/retry-signals, so a test can time the fallback from the
 * first signal rather than from the spawn.
 */
export function signalled(cli: string): void {
  const dir = process.env.FAKE_RECORD_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  appendFileSync(join(dir, "retry-signals"), `${Date.now()} ${cli} ${process.pid}\n`);
}
