import { describe, expect, test } from "bun:test";
import { foldEvents } from "../../src/backends/fold.ts";

describe("foldEvents", () => {
  test("streamed chunks join into one answer; a whole message replaces the last", () => {
    expect(
      foldEvents([
        { kind: "text", text: "Hel", delta: true },
        { kind: "text", text: "lo", delta: true },
      ]).text,
    ).toBe("Hello");
    expect(
      foldEvents([
        { kind: "text", text: "first" },
        { kind: "text", text: "second" },
      ]).text,
    ).toBe("second");
    expect(
      foldEvents([
        { kind: "text", text: "whole" },
        { kind: "text", text: "a", delta: true },
        { kind: "text", text: "b", delta: true },
      ]).text,
    ).toBe("ab");
  });

  test("a requested-model echo is not evidence of the model that served", () => {
    const run = foldEvents([
      { kind: "model", model: "claude-opus-5-5", requested: true },
      { kind: "model", model: "claude-sonnet-5-5" },
    ]);
    expect(run.models).toEqual(["claude-sonnet-5-5"]);
  });

  test("delta usage (opencode's per-step figures) adds up; cumulative usage replaces", () => {
    const run = foldEvents([
      { kind: "usage", delta: true, usage: { inputTokens: 10, costUsd: 0.5 } },
      { kind: "usage", delta: true, usage: { inputTokens: 5, costUsd: 0.25 } },
    ]);
    expect(run.usage).toEqual({ inputTokens: 15, costUsd: 0.75 });
  });

  test("the CLI's final record wins over streamed text; usage keeps the latest totals", () => {
    const run = foldEvents([
      { kind: "text", text: "draft" },
      { kind: "usage", usage: { inputTokens: 1 } },
      { kind: "usage", usage: { inputTokens: 5, outputTokens: 2 } },
      { kind: "final", ok: true, text: "final" },
    ]);
    expect(run.text).toBe("final");
    expect(run.usage).toEqual({ inputTokens: 5, outputTokens: 2 });
  });
});

describe("scoped usage (one message restated on each of its content blocks)", () => {
  test("the latest figures per scope count once; a later cumulative total replaces them", () => {
    const events = [
      { kind: "usage", scope: "m1", usage: { inputTokens: 42, outputTokens: 1, turns: 1 } },
      { kind: "usage", scope: "m1", usage: { inputTokens: 42, outputTokens: 1, turns: 1 } },
      { kind: "usage", scope: "m2", usage: { inputTokens: 50, outputTokens: 3, turns: 1 } },
      { kind: "usage", scope: "m2", usage: { inputTokens: 50, outputTokens: 9, turns: 1 } },
    ] as const;
    expect(foldEvents(events).usage).toEqual({ inputTokens: 92, outputTokens: 10, turns: 2 });
    expect(foldEvents([...events, { kind: "usage", usage: { inputTokens: 100, outputTokens: 12, turns: 2, costUsd: 0.01 } }]).usage).toEqual({
      inputTokens: 100,
      outputTokens: 12,
      turns: 2,
      costUsd: 0.01,
    });
  });
});
