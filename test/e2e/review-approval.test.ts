/**
 * A review's approval end to end: a client that declares elicitation gets the plan put to the person
 * (accept runs, decline and dismiss do not); one that does not uses the token; the result says
 * which. Long reviews run as jobs and as MCP Tasks, and a running review can be cancelled.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import type { ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { call, dataOf, openReviewWorld, plan, reviewConfig, reviewerRuns, reviewersOf, THREE, type ReviewWorld } from "./review-helpers.ts";

let world: ReviewWorld | undefined;

afterEach(async () => {
  await world?.close();
  world = undefined;
});

const STANDARD = { reviewers: ["cl"], deep_reviewers: ["cl", "oc", "cp"] };

async function withPerson(answer: ElicitResult["action"], asked: string[]): Promise<ReviewWorld> {
  world = await openReviewWorld(reviewConfig(THREE, STANDARD), {
    elicit: (message) => {
      asked.push(message);
      return answer;
    },
  });
  return world;
}

describe("review approval", () => {
  test("with elicitation, the person's accept runs it, and the result says the approval was the person's", async () => {
    const asked: string[] = [];
    const w = await withPerson("accept", asked);
    const p = await plan(w.session, {});
    expect(p.approval).toBe("elicitation");
    expect(asked).toEqual([]);
    const ran = dataOf(await call(w.session, "review_run", { review_id: p.review_id, token: p.token }));
    expect(ran).toMatchObject({ ok: true, status: "awaiting_synthesis", approval: "elicitation" });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain("cl (claude · claude-opus-4-6)");
    expect(asked[0]).toContain("No credential-shaped text");
    expect(reviewerRuns(w.box)).toHaveLength(1);
    // Eight concurrent calls with the same token: the person is asked once, and it runs once.
    const again = await plan(w.session, {});
    const replies = await Promise.all(Array.from({ length: 8 }, () => call(w.session, "review_run", { review_id: again.review_id, token: again.token })));
    expect(replies.filter((r) => !r.isError)).toHaveLength(1);
    expect(asked).toHaveLength(2);
    expect(reviewerRuns(w.box)).toHaveLength(2);
  });

  test("with elicitation, a decline (or a dismissal) ends the review declined and nothing is sent", async () => {
    for (const answer of ["decline", "cancel"] as const) {
      const asked: string[] = [];
      const w = await withPerson(answer, asked);
      const p = await plan(w.session, { material: [{ text: `PASSWORD=${"hunter2-" + "Zq9"}\n` }] });
      const reply = dataOf(await call(w.session, "review_run", { review_id: p.review_id, token: p.token, secrets: "send_as_is" }));
      expect(reply.error?.code).toBe("review_declined");
      expect(asked[0]).toContain("SENT AS IS");
      expect(reviewerRuns(w.box)).toEqual([]);
      expect(dataOf(await call(w.session, "review_get", { review_id: p.review_id })).status).toBe("declined");
      // The token went with the decline: asking again runs nothing.
      expect(dataOf(await call(w.session, "review_run", { review_id: p.review_id, token: p.token })).error?.code).toBe("invalid_token");
      await w.close();
      world = undefined;
    }
  });

  test("without elicitation the token is the approval, and the result says so", async () => {
    world = await openReviewWorld(reviewConfig(THREE, STANDARD));
    const p = await plan(world.session, {});
    expect(p.approval).toBe("token");
    expect(dataOf(await call(world.session, "review_run", { review_id: p.review_id, token: p.token }))).toMatchObject({
      status: "awaiting_synthesis",
      approval: "token",
    });
  });

  test("masked by default: the reviewer never sees a credential the plan located; send_as_is sends it", async () => {
    world = await openReviewWorld(reviewConfig(THREE, STANDARD));
    const secret = ["ghp", "_", "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"].join("");
    for (const secrets of ["mask", "send_as_is"] as const) {
      const p = await plan(world.session, { material: [{ text: `token ${secret}\n` }] });
      await call(world.session, "review_run", { review_id: p.review_id, token: p.token, secrets });
    }
    const [masked, sent] = reviewerRuns(world.box).map((r) => JSON.stringify(r));
    expect(masked).not.toContain(secret);
    expect(masked).toContain("[REDACTED:github]");
    expect(sent).toContain(secret);
  });
});

describe("long reviews", () => {
  const SLOW = { ...THREE, cl: { ...THREE.cl!, env: { FAKE_DELAY_MS: "2500" } } };

  test("past the sync budget a review continues as a job, and job_wait returns the review", async () => {
    world = await openReviewWorld(reviewConfig(SLOW, STANDARD), { env: { ORCHESTRATE_SYNC_BUDGET_S: "1" } });
    const p = await plan(world.session, {});
    const first = dataOf(await call(world.session, "review_run", { review_id: p.review_id, token: p.token }));
    const job = first.job as { id: string };
    expect(job.id).toBeTruthy();
    let done = dataOf(await call(world.session, "job_wait", { id: job.id, waitSec: 20 }));
    for (let i = 0; i < 5 && done.status === "running"; i++) done = dataOf(await call(world.session, "job_wait", { id: job.id, waitSec: 20 }));
    expect(done.status).toBe("ok");
    expect(done.result).toMatchObject({ review_id: p.review_id, status: "awaiting_synthesis" });
  }, 60_000);

  test("review_run runs as an MCP task to its end", async () => {
    world = await openReviewWorld(reviewConfig(SLOW, STANDARD), { env: { ORCHESTRATE_SYNC_BUDGET_S: "1" } });
    const p = await plan(world.session, {});
    let result: unknown;
    for await (const message of world.session.client.experimental.tasks.callToolStream(
      { name: "review_run", arguments: { review_id: p.review_id, token: p.token } },
      CallToolResultSchema,
      { task: { ttl: 60_000 } },
    )) {
      if (message.type === "result") result = message.result.structuredContent;
      if (message.type === "error") throw message.error;
    }
    expect(result).toMatchObject({ status: "awaiting_synthesis", approval: "token" });
  }, 60_000);

  test("review_cancel stops running reviewers; the review ends cancelled", async () => {
    const hanging = { ...THREE, oc: { ...THREE.oc!, env: { FAKE_OPENCODE_SCENARIO: "hang" } } };
    world = await openReviewWorld(reviewConfig(hanging, { deep_reviewers: ["cl", "oc"] }));
    const p = await plan(world.session, { mode: "deep" });
    const started = dataOf(
      await call(world.session, "review_run", { review_id: p.review_id, token: p.token, host_findings: [{ severity: "minor", claim: "x" }], background: true }),
    );
    const job = started.job as { id: string };
    for (
      let i = 0;
      i < 200 && reviewersOf(dataOf(await call(world.session, "review_get", { review_id: p.review_id }))).find((r) => r.id === "cl")?.status !== "answered";
      i++
    )
      await Bun.sleep(50);
    expect(dataOf(await call(world.session, "review_cancel", { review_id: p.review_id })).status).toBe("cancelled");
    const end = dataOf(await call(world.session, "job_wait", { id: job.id, waitSec: 20 }));
    expect(end.status).toBe("cancelled");
    const after = dataOf(await call(world.session, "review_get", { review_id: p.review_id }));
    expect(after.status).toBe("cancelled");
    expect(reviewersOf(after).map((r) => [r.id, r.status])).toEqual([
      ["cl", "answered"],
      ["oc", "cancelled"],
    ]);
  }, 60_000);
});
