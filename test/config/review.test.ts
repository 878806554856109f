/** consult.review (seed 001): read as written in both formats, ids and counts checked, errors named as written. */
import { describe, expect, test } from "bun:test";
import { loadConfig } from "../../src/config/load.ts";
import { validateConfigObject } from "../../src/config/validate.ts";
import { captureLog, privateDir, SEED_001_CONFIG_YAML, writeConfig } from "./helpers.ts";

/** The README's block, verbatim, under the README's own example config. */
const SEED_001_REVIEW = `${SEED_001_CONFIG_YAML}
  review:
    reviewers: [codex]          # standard: exactly one
    deep_reviewers: [codex, claude]  # deep: one to five
`;

function errorsOf(raw: unknown): string[] {
  const out = validateConfigObject(raw, { format: "yaml" }, { HOME: "/h" });
  return out.ok ? [] : out.errors;
}

describe("consult.review", () => {
  test("seed 001's config.yaml with its review block loads as written, with no 'ignored' notice", async () => {
    const path = writeConfig(privateDir(), "config.yaml", SEED_001_REVIEW);
    const { value, lines } = await captureLog(() => loadConfig({ path, env: { HOME: "/h" } }));
    if (!value.ok) throw new Error(value.error.message);
    expect(value.value.consult.review).toEqual({ reviewers: ["codex"], deepReviewers: ["codex", "claude"] });
    expect(lines.filter((l) => l.includes("review"))).toEqual([]);
  });

  test("the unified format takes the same block under consult:", () => {
    const raw = {
      agents: { a: { backend: "codex", model: "gpt-5.5" }, b: { backend: "claude", model: "claude-opus-4-6" } },
      consult: { review: { deep_reviewers: ["a", "b"] } },
    };
    const out = validateConfigObject(raw, { format: "yaml" }, {});
    expect(out.ok && out.value.config.consult.review).toEqual({ reviewers: [], deepReviewers: ["a", "b"] });
  });

  test("without the block there is no review config", () => {
    const out = validateConfigObject({ agents: { a: { backend: "codex", model: "gpt-5.5" } } }, { format: "yaml" }, {});
    expect(out.ok && out.value.config.consult.review).toBeUndefined();
  });

  test("unknown ids, counts, repeats and typos are refused, named as written", () => {
    const agents = { a: { backend: "codex", model: "gpt-5.5" }, b: { backend: "claude", model: "opus" } };
    expect(errorsOf({ agents, consult: { review: { reviewers: ["a", "b"] } } })).toEqual([
      "consult.review.reviewers: standard reviews take exactly one reviewer (2 listed) (list one agent id; put more under deep_reviewers)",
    ]);
    expect(errorsOf({ agents, consult: { review: { deep_reviewers: ["a", "zed", "a"] } } })).toEqual([
      'consult.review.deep_reviewers[1]: refers to an unknown agent "zed" (define it under agents:, or use one of: a, b)',
      'consult.review.deep_reviewers[2]: "a" is listed twice (remove the repeat)',
    ]);
    const six = Object.fromEntries(["a", "b", "c", "d", "e", "f"].map((id) => [id, { backend: "codex", model: "gpt-5.5" }]));
    expect(errorsOf({ agents: six, consult: { review: { deep_reviewers: Object.keys(six) } } })).toEqual([
      "consult.review.deep_reviewers: deep reviews take one to 5 reviewers (6 listed) (list between 1 and 5 agent ids)",
    ]);
    expect(errorsOf({ agents, consult: { review: {} } })).toEqual([
      "consult.review: names no reviewers (add reviewers: [one agent id] for standard reviews and/or deep_reviewers: [one to five ids])",
    ]);
    expect(errorsOf({ agents, consult: { review: { reviewer: ["a"] } } })[0]).toContain(
      "consult.review.reviewer: unknown key (did you mean reviewers? known keys: reviewers, deep_reviewers)",
    );
  });

  test("in the Orchestrator format an unknown reviewer is named by its path in that file", () => {
    const yaml = `${SEED_001_CONFIG_YAML}  review:\n    reviewers: [gemini]\n`;
    expect(errorsOf(Bun.YAML.parse(yaml))).toEqual([
      'consult.review.reviewers[0]: refers to an unknown agent "gemini" (define it under agents:, or use one of: codex, claude)',
    ]);
  });
});
