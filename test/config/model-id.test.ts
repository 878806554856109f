import { describe, expect, test } from "bun:test";
import { compareModel, hasVersion, tokenRuns } from "../../src/config/model-id.ts";

describe("model identity", () => {
  test("token runs", () => {
    expect(tokenRuns("gpt-5.10-mini")).toEqual(["gpt", "5", "10", "mini"]);
    expect(tokenRuns("openai/gpt-5.1")).toEqual(["gpt", "5", "1"]);
  });

  test.each([
    ["gpt-5.1", ["gpt-5.1"], "verified"],
    ["gpt-5.1", ["gpt-5.10"], "mismatch"],
    ["gpt-5.10", ["gpt-5.1"], "mismatch"],
    ["claude-opus-4-6", ["claude-opus-4-6-20260101"], "verified"],
    ["claude-opus-4-6", ["claude-opus-4-6-2026-01-01"], "verified"],
    ["claude-opus-4-6", ["claude-opus-4-7"], "mismatch"],
    ["opus", ["claude-opus-5-5"], "unverified"],
    ["opus", ["claude-sonnet-5-5"], "mismatch"],
    ["gemini-2.5-pro", [], "unverified"],
    ["gemini-2.5-pro", ["<synthetic>"], "unverified"],
    ["gemini-2.5-pro", ["gemini-2.5-flash-lite", "gemini-2.5-pro"], "mismatch"],
    ["gpt-5.5", ["gpt-4o-mini", "gpt-5.5"], "mismatch"],
    ["deepseek/deepseek-v4", ["deepseek-v4"], "verified"],
  ] as const)("%s vs %p → %s", (configured, reported, verdict) => {
    expect(compareModel(configured, reported)).toBe(verdict);
  });

  test("verified only when every model that served matches; a helper named by rule is left out", () => {
    expect(compareModel("gemini-2.5-pro", ["gemini-2.5-flash-lite", "gemini-2.5-pro"], /flash-lite/)).toBe("verified");
    expect(compareModel("gemini-2.5-flash-lite", ["gemini-2.5-flash-lite"], /flash-lite/)).toBe("verified");
    expect(compareModel("gemini-2.5-pro", ["gemini-2.5-flash-lite"], /flash-lite/)).toBe("unverified");
  });

  test("a bare alias has no version; a dated snapshot alone is not a version", () => {
    expect(hasVersion("opus")).toBe(false);
    expect(hasVersion("claude-opus-4-6")).toBe(true);
  });
});
