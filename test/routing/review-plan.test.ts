import { describe, expect, test } from "bun:test";
import { pickReviewers, sameExecution } from "../../src/routing/review-plan.ts";
import { zeroConfig } from "../../src/config/defaults.ts";
import { agent, configWith } from "../helpers/config.ts";

const agents = [
  agent("codex", "codex", { model: "gpt-5.6-sol" }),
  agent("codex-sol", "codex", { model: "gpt-5.6-sol-20260101" }),
  agent("claude", "claude", { model: "claude-opus-4-6" }),
  agent("gem", "gemini", { model: "gemini-2.5-pro" }),
  agent("off", "copilot", { model: "gpt-5", enabled: false }),
];
const review = { reviewers: ["codex"], deepReviewers: ["codex", "codex-sol", "claude", "gem"] };
const cfg = configWith(agents, { consult: { timeoutSec: 180, review } });

const ids = (r: ReturnType<typeof pickReviewers>) => (r.ok ? r.pick.reviewers.map((a) => a.id) : r.error.code);

describe("review routing", () => {
  test("the mode's configured reviewers; two ids on one model are one reviewer", () => {
    expect(ids(pickReviewers(cfg, { runtime: "opencode" }, "standard"))).toEqual(["codex"]);
    const deep = pickReviewers(cfg, { runtime: "opencode" }, "deep");
    expect(ids(deep)).toEqual(["codex", "claude", "gem"]);
    expect(deep.ok && deep.pick.merged).toEqual([{ id: "codex-sol", same_as: "codex" }]);
  });

  test("the host's own identity is never a reviewer (the consult rule)", () => {
    const deep = pickReviewers(cfg, { runtime: "claude" }, "deep");
    expect(ids(deep)).toEqual(["codex", "gem"]);
    expect(deep.ok && deep.pick.excluded.map((e) => e.id)).toEqual(["claude"]);
    expect(ids(pickReviewers(cfg, { runtime: "codex" }, "standard"))).toBe("no_eligible_reviewer");
    // A different versioned model on the host's runtime is allowed once host.model says which one the host is.
    expect(ids(pickReviewers(cfg, { runtime: "claude", model: "claude-opus-5" }, "deep"))).toEqual(["codex", "claude", "gem"]);
  });

  test("counts: standard exactly one, deep one to five; named ids are checked", () => {
    expect(ids(pickReviewers(cfg, undefined, "standard", ["codex", "claude"]))).toBe("reviewer_count");
    // Two ids on one model count once, so this is one reviewer and fine.
    expect(ids(pickReviewers(cfg, undefined, "standard", ["codex", "codex-sol"]))).toEqual(["codex"]);
    expect(ids(pickReviewers(cfg, undefined, "deep", ["nope"]))).toBe("unknown_agent");
    expect(ids(pickReviewers(cfg, undefined, "deep", ["off"]))).toBe("no_eligible_reviewer");
    const six = configWith(["a", "b", "c", "d", "e", "f"].map((id, i) => agent(id, "codex", { model: `gpt-5.${i}` })));
    expect(ids(pickReviewers(six, undefined, "deep", ["a", "b", "c", "d", "e", "f"]))).toBe("reviewer_count");
  });

  test("without the block, or without the mode's list, nothing is offered", () => {
    expect(ids(pickReviewers(configWith(agents, { consult: zeroConfig().consult }), undefined, "deep"))).toBe("review_unconfigured");
    const standardOnly = configWith(agents, { consult: { timeoutSec: 180, review: { reviewers: ["codex"], deepReviewers: [] } } });
    expect(ids(pickReviewers(standardOnly, undefined, "deep"))).toBe("review_mode_unconfigured");
  });

  test("execution identity: runtime + model, unprovable differences count as the same", () => {
    expect(sameExecution({ backend: "codex", model: "gpt-5.1" }, { backend: "codex", model: "gpt-5.10" })).toBe(false);
    expect(sameExecution({ backend: "codex", model: "gpt-5.5" }, { backend: "opencode", model: "openai/gpt-5.5" })).toBe(false);
    expect(sameExecution({ backend: "claude", model: "opus" }, { backend: "claude", model: "claude-opus-5" })).toBe(true);
    expect(sameExecution({ backend: "claude", model: "opus" }, { backend: "claude", model: "sonnet" })).toBe(false);
    expect(sameExecution({ backend: "claude" }, { backend: "claude", model: "claude-opus-5" })).toBe(true);
  });
});
