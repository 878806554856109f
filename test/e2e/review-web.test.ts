/**
 * Web-granted reviews (issue 23 §4), end to end over stdio: asked for web, the plan says per
 * reviewer whether it may browse and why not; the run offers the web tools only to the reviewers
 * the plan granted (codex web_search live; claude, untrusted, keeps --tools "").
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { call, dataOf, openReviewWorld, plan, reviewerRuns, type ReviewWorld } from "./review-helpers.ts";

const CONFIG = `agents:
  cx: { backend: codex, model: gpt-5.5, capabilities: [web_search], env: { FAKE_SCENARIO: web-search } }
  cl: { backend: claude, model: claude-opus-4-6, env: { FAKE_SCENARIO: web-search } }
consult:
  webTurnLimit: 3
  review:
    deep_reviewers: [cx, cl]
`;

let world: ReviewWorld;
beforeAll(async () => {
  world = await openReviewWorld(CONFIG);
});
afterAll(async () => {
  await world.close();
});

describe("review with web", () => {
  test("the plan says web requested and granted per reviewer; only the granted one is offered its web tool", async () => {
    const p = await plan(world.session, { mode: "deep", web: true });
    expect(p.web).toEqual({
      requested: true,
      granted: true,
      reviewers: [
        { id: "cx", granted: true },
        {
          id: "cl",
          granted: false,
          why: "the config does not trust cl with the web (add capabilities: [web_search] to it; web_search: true in an Orchestrator MCP config)",
        },
      ],
    });
    const ran = dataOf(await call(world.session, "review_run", { review_id: p.review_id, token: p.token, host_findings: [{ severity: "minor", claim: "x" }] }));
    expect(ran).toMatchObject({ ok: true, status: "awaiting_synthesis" });
    const runs = reviewerRuns(world.box);
    const codex = runs.find((r) => r.cli === "codex")?.argv ?? [];
    const claude = runs.find((r) => r.cli === "claude")?.argv ?? [];
    expect(codex).toContain('web_search="live"');
    expect(claude[claude.indexOf("--tools") + 1]).toBe("");
  }, 60_000);

  test("without web the plan says not requested and every reviewer is kept off the web", async () => {
    const p = await plan(world.session, { mode: "deep" });
    expect(p.web).toEqual({ requested: false, granted: false });
  });
});
