/**
 * The real CLIs' recorded retry timelines (test/fixtures/retries, copied from research) replayed
 * through each backend's own parsers and the capacity guard, on the recorded clock: a persistent
 * 429/503 must trip within seconds of its first retry signal, a recovered transient never.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Adapter, AgentEvent } from "../../src/backends/contract.ts";
import { claudeAdapter } from "../../src/backends/claude/index.ts";
import { codexAdapter } from "../../src/backends/codex/index.ts";
import { foldEvents } from "../../src/backends/fold.ts";
import { opencodeAdapter } from "../../src/backends/opencode/index.ts";
import { piAdapter } from "../../src/backends/pi/index.ts";
import { capacityRetryGuard, GuardSet } from "../../src/runner/guards.ts";

const DIR = join(import.meta.dir, "..", "fixtures", "retries");

interface Line {
  atMs: number;
  stream: "out" | "err";
  text: string;
}

/** `   0.414 OUT {…}` / `   4.511 ERR …` / `   1.538 --- EXIT …` */
function timeline(name: string): { lines: Line[]; exitMs: number } {
  const lines: Line[] = [];
  let exitMs = 0;
  for (const raw of readFileSync(join(DIR, `${name}.timeline`), "utf8").split("\n")) {
    const m = /^\s*([\d.]+) (OUT|ERR|---) (.*)$/.exec(raw);
    if (!m) continue;
    const atMs = Math.round(Number(m[1]) * 1000);
    if (m[2] === "---") exitMs = atMs;
    else lines.push({ atMs, stream: m[2] === "OUT" ? "out" : "err", text: m[3] ?? "" });
  }
  return { lines, exitMs };
}

/** pi's RPC captures: the stdout records, and in the timeline the ms each one arrived at (`<` lines, in order). */
function piTimeline(version: string): { lines: Line[]; exitMs: number } {
  const records = readFileSync(join(DIR, `pi-${version}-rpc-429.stdout`), "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "");
  const times = readFileSync(join(DIR, `pi-${version}-rpc-429.timeline`), "utf8").split("\n");
  const arrivals = times.flatMap((l) => /^(\d+)ms < /.exec(l)?.[1] ?? []).map(Number);
  const exitMs = Number(times.map((l) => /^(\d+)ms exit/.exec(l)?.[1]).find(Boolean));
  expect(arrivals.length).toBe(records.length);
  return { lines: records.map((text, i) => ({ atMs: arrivals[i] ?? 0, stream: "out", text })), exitMs };
}

interface Replayed {
  firstSignalMs?: number;
  tripMs?: number;
  events: AgentEvent[];
}

/** The stream as the runner sees it: each line's events at its time, the silence timer between lines. */
function replay(adapter: Adapter, run: { lines: Line[]; exitMs: number }): Replayed {
  const set = new GuardSet([capacityRetryGuard()]);
  const out: Replayed = { events: [] };
  const trip = (atMs: number, stop: string | undefined): void => {
    if (stop && out.tripMs === undefined) out.tripMs = atMs;
  };
  const silence = (untilMs: number): void => {
    const due = set.nextDue();
    if (due !== undefined && due <= untilMs) trip(due, set.tick(due));
  };
  for (const line of run.lines) {
    silence(line.atMs);
    if (out.tripMs !== undefined) break;
    const events = line.stream === "out" ? adapter.parse(line.text) : (adapter.parseStderr?.(line.text) ?? []);
    for (const event of events) {
      out.events.push(event);
      if (event.kind === "retry" && event.failure === "capacity") out.firstSignalMs ??= line.atMs;
      trip(
        line.atMs,
        set.see(event, () => foldEvents([]), line.atMs),
      );
    }
    if (out.tripMs !== undefined) break;
  }
  if (out.tripMs === undefined) silence(run.exitMs);
  return out;
}

describe("persistent capacity failures trip within 5 s of the first retry signal", () => {
  const rows: [string, Adapter, () => { lines: Line[]; exitMs: number }, number, number][] = [
    // name, adapter, capture, expected first signal (ms), expected trip (ms)
    ["codex 429 (Reconnecting 1/5, 2/5 a second later)", codexAdapter, () => timeline("codex-ratelimit"), 462, 1490],
    ["codex 503 (5 silent HTTP tries, then Reconnecting 1/5 and 2/5)", codexAdapter, () => timeline("codex-overload"), 3449, 6790],
    ["codex 503 with request_max_retries=0 (announced at once)", codexAdapter, () => timeline("codex-overload-req0"), 424, 665],
    ["claude 429, default retries", claudeAdapter, () => timeline("claude-ratelimit-default"), 743, 1758],
    ["claude 529, default retries", claudeAdapter, () => timeline("claude-overload-default"), 762, 1305],
    ["claude 429 with CLAUDE_CODE_MAX_RETRIES=1 (its final error ends it first)", claudeAdapter, () => timeline("claude-ratelimit-max1"), 981, NaN],
    ["opencode 429 (stderr stream error lines, --print-logs)", opencodeAdapter, () => timeline("opencode-ratelimit-printlogs"), 6102, 7144],
    ["opencode 503 (2 s backoff doubling)", opencodeAdapter, () => timeline("opencode-overload-printlogs"), 8693, 10877],
    ["pi 0.73 429 (auto_retry_start after 3 SDK tries, then 2 s)", piAdapter, () => piTimeline("v0.73.1"), 4114, 8138],
    ["pi 1.6 429 (auto_retry_start 2 s, 4 s apart)", piAdapter, () => piTimeline("v1.6.0"), 531, 2551],
  ];
  for (const [name, adapter, capture, first, tripAt] of rows) {
    test(name, () => {
      const run = replay(adapter, capture());
      expect(run.firstSignalMs).toBeDefined();
      expect(Math.abs((run.firstSignalMs ?? 0) - first)).toBeLessThan(15);
      if (Number.isNaN(tripAt)) {
        // The CLI's own capped final error came before the guard had a reason: classify decides.
        expect(run.tripMs).toBeUndefined();
        expect(run.events.some((e) => e.kind === "error" && e.failure === "capacity")).toBe(true);
        return;
      }
      expect(Math.abs((run.tripMs ?? 0) - tripAt)).toBeLessThan(15);
      expect((run.tripMs ?? Infinity) - (run.firstSignalMs ?? 0)).toBeLessThan(5000);
    });
  }
});

describe("a provider's long wait", () => {
  test("claude announces retry-after 20 in retry_delay_ms: it trips on that line, with the wait", () => {
    const run = replay(claudeAdapter, timeline("claude-ratelimit-ra20-max2"));
    expect(run.tripMs).toBe(run.firstSignalMs);
    expect(run.events.find((e) => e.kind === "retry")).toMatchObject({ failure: "capacity", retryAfterSec: 20 });
  });

  test("codex waits out retry-after 20 silently: the 8 s window ends it", () => {
    const run = replay(codexAdapter, timeline("codex-ratelimit-ra20"));
    expect((run.tripMs ?? 0) - (run.firstSignalMs ?? 0)).toBe(8000);
  });
});

describe("one transient failure: the same first line, then the answer — never tripped", () => {
  const rows: [string, Adapter, string, boolean][] = [
    ["codex 429", codexAdapter, "transient-codex-ratelimit", true],
    ["codex 503 (absorbed silently by the HTTP layer)", codexAdapter, "transient-codex-overload", false],
    ["claude 429", claudeAdapter, "transient-claude-ratelimit", true],
    ["claude 529", claudeAdapter, "transient-claude-overload", true],
    ["opencode 429", opencodeAdapter, "transient-opencode-ratelimit", true],
    ["opencode 503 (2.4 s to its next step)", opencodeAdapter, "transient-opencode-overload", true],
  ];
  for (const [name, adapter, capture, signalled] of rows) {
    test(name, () => {
      const run = replay(adapter, timeline(capture));
      expect(run.firstSignalMs !== undefined).toBe(signalled);
      expect(run.tripMs).toBeUndefined();
    });
  }
});
