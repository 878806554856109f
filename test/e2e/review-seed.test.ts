/**
 * Seed 001's own config.yaml, as its README writes it (agents and the review block, host runtime from
 * ORCHESTRATOR_HOST_RUNTIME), reviewing end to end through a real MCP client; and progress per
 * reviewer while a review runs.
 */
import { afterEach, describe, expect, test } from "bun:test";
import type { ToolReply } from "../../fakes/lib/mcp-client.ts";
import { SEED_001_CONFIG_YAML } from "../config/helpers.ts";
import { call, dataOf, findingsOf, openReviewWorld, plan, reviewConfig, reviewersOf, THREE, type ReviewWorld } from "./review-helpers.ts";

let world: ReviewWorld | undefined;

afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** The README's review block, verbatim, appended to the README's config. */
const SEED_CONFIG = `${SEED_001_CONFIG_YAML}
  review:
    reviewers: [codex]          # standard: exactly one
    deep_reviewers: [codex, claude]  # deep: one to five
`;

describe("review with seed 001's config.yaml", () => {
  test("works as written: the host's runtime (ORCHESTRATOR_HOST_RUNTIME) is left out, the other reviews, finalize records the synthesis", async () => {
    world = await openReviewWorld(SEED_CONFIG, { env: { ORCHESTRATE_HOST_RUNTIME: "", ORCHESTRATOR_HOST_RUNTIME: "codex" } });
    const tools = (await world.session.client.listTools()).tools.map((t) => t.name);
    // A seed 001 config advertises the seed's own names (src/mcp/tools/names.ts); calls under either name work.
    expect(tools).toContain("orchestrator_review");
    expect(tools).not.toContain("review");
    // Standard mode's only reviewer is the host's own runtime.
    expect(dataOf(await call(world.session, "review", { goal: "g", mode: "standard", material: [{ text: "x" }] })).error?.code).toBe("no_eligible_reviewer");
    const p = await plan(world.session, { mode: "deep" });
    expect(p.excluded).toEqual([{ id: "codex", why: expect.stringContaining("host's own runtime") }]);
    const ran = dataOf(
      await call(world.session, "review_run", { review_id: p.review_id, token: p.token, host_findings: [{ severity: "minor", claim: "names" }] }),
    );
    expect(ran).toMatchObject({ status: "awaiting_synthesis", approval: "token" });
    expect(reviewersOf(ran)).toEqual([expect.objectContaining({ id: "claude", status: "answered", model: "claude-opus-4-6" })]);
    const ids = findingsOf(ran).map((f) => f.id);
    const done = dataOf(
      await call(world.session, "review_finalize", {
        review_id: p.review_id,
        summary: "fine",
        recommendation: "ship",
        checked: ["x"],
        not_checked: [],
        combined_findings: [{ severity: "minor", claim: "naming", sources: ids, disposition: "accepted_risk" }],
        agreements: ["naming"],
        disagreements: [],
      }),
    );
    expect(done).toMatchObject({ ok: true, status: "finalized", not_carried: [] });
  });
});

describe("progress", () => {
  test("a client with a progress token hears each reviewer's state while the review runs", async () => {
    const slow = { ...THREE, oc: { ...THREE.oc!, env: { FAKE_DELAY_MS: "2500" } } };
    world = await openReviewWorld(reviewConfig(slow, { deep_reviewers: ["cl", "oc"] }));
    const p = await plan(world.session, { mode: "deep" });
    const heard: string[] = [];
    const ran = (await world.session.client.callTool(
      { name: "review_run", arguments: { review_id: p.review_id, token: p.token, host_findings: [{ severity: "minor", claim: "x" }] } },
      undefined,
      { onprogress: (n) => heard.push(String(n.message)) },
    )) as ToolReply;
    expect(heard.some((m) => /cl: answered \(1 finding\)/.test(m) && /oc: (starting|running)/.test(m))).toBe(true);
    // The done count only grows. The last line ("2/2 done") is sent just before the reply, and the
    // SDK client handles a progress notification a microtask after it reads it but the reply at
    // once, so when both arrive in one read the last line can be dropped: the reply says the end.
    const counts = heard.map((m) => Number(/ (\d)\/2 done/.exec(m)?.[1]));
    expect(counts.every((n, i) => i === 0 || n >= (counts[i - 1] ?? 0))).toBe(true);
    expect(reviewersOf(dataOf(ran)).map((r) => r.status)).toEqual(["answered", "answered"]);
  }, 60_000);
});
