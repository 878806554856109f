import { describe, expect, test } from "bun:test";
import { fallbackVerdict, FAST_FAILURE_MS } from "../../src/routing/fallback.ts";
import type { FailureClass } from "../../src/backends/contract.ts";

const clean = { durationMs: 400, treeBefore: "a", treeAfter: "a", acted: false, spawned: true };

describe("fallbackVerdict", () => {
  test.each(["not_installed", "auth", "capacity", "transport"] as FailureClass[])("falls back on a fast clean %s", (failure) => {
    expect(fallbackVerdict({ ...clean, failure }).fallback).toBe(true);
  });

  test.each(["timeout", "budget", "stalled", "cancelled", "task_failed", "empty_answer", "bad_output"] as FailureClass[])("%s is terminal", (failure) => {
    expect(fallbackVerdict({ ...clean, failure }).fallback).toBe(false);
  });

  test("a changed tree is terminal", () => {
    expect(fallbackVerdict({ ...clean, failure: "capacity", treeAfter: "b" })).toEqual({ fallback: false, reason: "the working tree changed" });
  });

  test("a non-git cwd is terminal after a spawn", () => {
    expect(fallbackVerdict({ failure: "capacity", durationMs: 10, acted: false, spawned: true }).fallback).toBe(false);
  });

  test("a non-git cwd still falls back when nothing was spawned", () => {
    expect(fallbackVerdict({ failure: "not_installed", durationMs: 1, acted: false, spawned: false }).fallback).toBe(true);
  });

  test("a slow failure is terminal", () => {
    expect(fallbackVerdict({ ...clean, failure: "capacity", durationMs: FAST_FAILURE_MS + 1 }).fallback).toBe(false);
  });

  test("a delegate that ran an acting tool is terminal even with an identical tree", () => {
    expect(fallbackVerdict({ ...clean, failure: "capacity", acted: true }).fallback).toBe(false);
  });
});
