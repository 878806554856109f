import { describe, expect, test } from "bun:test";
import { EventLog } from "../../src/runner/event-log.ts";
import { EventFolder, foldEvents } from "../../src/backends/fold.ts";
import type { AgentEvent } from "../../src/backends/contract.ts";

function longStream(n: number): AgentEvent[] {
  const events: AgentEvent[] = [
    { kind: "session", sessionId: "s" },
    { kind: "model", model: "m-1" },
  ];
  for (let i = 0; i < n; i++)
    events.push({ kind: "tool", name: "Bash", phase: "end", acts: i === 3, detail: `step ${i}` }, { kind: "usage", delta: true, usage: { inputTokens: 1 } });
  events.push({ kind: "text", text: "the answer" }, { kind: "error", message: "late warning" }, { kind: "final", ok: true, text: "the answer" });
  return events;
}

describe("bounded event retention", () => {
  test("a long stream keeps every rare event and only the recent bulky ones, in order", () => {
    const log = new EventLog();
    for (const e of longStream(20_000)) log.push(e);
    expect(log.events.length).toBeLessThanOrEqual(1_004 + 4);
    expect(log.events.slice(0, 2).map((e) => e.kind)).toEqual(["session", "model"]);
    expect(log.events.slice(-3).map((e) => e.kind)).toEqual(["text", "error", "final"]);
  });

  test("the incremental fold equals the whole fold: early acting tools and summed deltas are not lost", () => {
    const events = longStream(20_000);
    const folder = new EventFolder();
    for (const e of events) folder.push(e);
    expect(folder.result()).toEqual(foldEvents(events));
    expect(folder.result().acted).toBe(true);
    expect(folder.result().usage.inputTokens).toBe(20_000);
  });
});
