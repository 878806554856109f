/**
 * Reviews end to end (issue 13): a real MCP client over stdio, the real server process, the fake
 * CLIs as reviewers and a real SQLite file. Each rule has a test that fails without it.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect, textOf } from "../../fakes/lib/mcp-client.ts";
import { j, secretGenerator } from "../helpers/fake-secrets.ts";
import {
  call,
  criticalReply,
  dataOf,
  findingsOf,
  openReviewWorld,
  plan,
  reviewConfig,
  reviewerRuns,
  reviewersOf,
  storeRows,
  THREE,
  type ReviewWorld,
} from "./review-helpers.ts";

let world: ReviewWorld | undefined;

afterEach(async () => {
  await world?.close();
  world = undefined;
});

const BOTH = { reviewers: ["cl"], deep_reviewers: ["cl", "oc", "cp"] };
const rand = secretGenerator(23);

/** `review: null` writes no consult.review block. */
async function open(
  agents = THREE,
  review: { reviewers?: string[]; deep_reviewers?: string[] } | null = BOTH,
  env: Record<string, string> = {},
): Promise<ReviewWorld> {
  world = await openReviewWorld(reviewConfig(agents, review ?? undefined), { env });
  return world;
}

describe("review: the plan", () => {
  test("sends nothing: no CLI runs, and the plan names reviewers, size, requests, web and where credential-shaped text is", async () => {
    const w = await open();
    const key = j("ghp_", rand(36));
    const p = await plan(w.session, {
      mode: "deep",
      material: [{ text: "line one\nconst token = ok;\n" }, { label: "env", text: `A=1\nGITHUB_TOKEN=${key}\n` }],
      web: true,
    });
    expect(w.box.recordings()).toEqual([]);
    expect(p.reviewers).toEqual([
      { id: "cl", backend: "claude", model: "claude-opus-4-6" },
      { id: "oc", backend: "opencode", model: "opencode/deepseek-v4" },
      { id: "cp", backend: "copilot", model: "gpt-5.2" },
    ]);
    expect(p.requests).toEqual({ reviewers: 3, at_most: 6 });
    expect(p.secrets).toEqual([{ where: "env", line: 2, column: 14, kind: "github" }]);
    expect(p.web).toMatchObject({ requested: true, granted: false });
    expect(p.material).toMatchObject({ total: { items: 2, lines: 4 } });
    expect(p.token).toMatch(/^rvw_/);
    // The stored plan and material are redacted; the token itself is kept only as a hash.
    const [row] = storeRows<{ plan_json: string; material_json: string; token_sha256: string }>(
      w.box,
      "SELECT plan_json, material_json, token_sha256 FROM reviews",
    );
    expect(JSON.stringify(row)).not.toContain(key);
    expect(JSON.stringify(row)).not.toContain(p.token);
    expect(textOf(await call(w.session, "review", { goal: "g", mode: "standard", material: [{ text: "x" }] }))).toContain("nothing has been sent");
  });

  test("the host's own runtime is never a reviewer, and two ids on one model are one reviewer", async () => {
    const agents = { ...THREE, oc2: { backend: "opencode", model: "opencode/deepseek-v4-20260101" } };
    const w = await open(agents, { deep_reviewers: ["oc", "oc2", "cl", "cp"] }, { ORCHESTRATE_HOST_RUNTIME: "claude" });
    const p = await plan(w.session, { mode: "deep" });
    expect((p.reviewers as { id: string }[]).map((r) => r.id)).toEqual(["oc", "cp"]);
    expect(p.excluded).toEqual([{ id: "cl", why: expect.stringContaining("host's own runtime") }]);
    expect(p.merged).toEqual([{ id: "oc2", same_as: "oc" }]);
    expect(dataOf(await call(w.session, "review", { goal: "g", mode: "standard", material: [{ text: "x" }] })).error?.code).toBe("review_mode_unconfigured");
  });
});

describe("review: the run", () => {
  test("the token is single-use under 8 concurrent review_run calls: exactly one runs", async () => {
    const w = await open();
    const p = await plan(w.session, {});
    const replies = await Promise.all(Array.from({ length: 8 }, () => call(w.session, "review_run", { review_id: p.review_id, token: p.token })));
    const won = replies.filter((r) => !r.isError);
    expect(won).toHaveLength(1);
    expect(replies.filter((r) => r.isError).map((r) => dataOf(r).error?.code)).toEqual(Array(7).fill("invalid_token"));
    expect(dataOf(won[0]!)).toMatchObject({ status: "awaiting_synthesis", approval: "token" });
    expect(reviewerRuns(w.box)).toHaveLength(1);
  });

  test("a token presented to another server (same store) is refused there and leaves the review runnable where it was planned", async () => {
    const w = await open();
    const p = await plan(w.session, {});
    const other = await connect(w.box.env);
    try {
      const elsewhere = dataOf(await call(other, "review_run", { review_id: p.review_id, token: p.token }));
      expect(elsewhere.error?.code).toBe("plan_unavailable");
      expect(elsewhere.error?.message).toContain("untouched");
    } finally {
      await other.close();
    }
    expect(reviewerRuns(w.box)).toEqual([]);
    const here = dataOf(await call(w.session, "review_run", { review_id: p.review_id, token: p.token }));
    expect(here).toMatchObject({ ok: true, status: "awaiting_synthesis", approval: "token" });
  });

  test("a plan whose material changed after planning is refused, and nothing is sent", async () => {
    const w = await open();
    const file = join(w.box.repo, "cache.ts");
    writeFileSync(file, "export const cache = new Map();\nexport function put() {}\n");
    const p = await plan(w.session, { material: [{ path: file, start_line: 1, end_line: 2 }] });
    writeFileSync(file, "export const cache = new WeakMap();\nexport function put() {}\n");
    const reply = dataOf(await call(w.session, "review_run", { review_id: p.review_id, token: p.token }));
    expect(reply.error?.code).toBe("plan_changed");
    expect(reviewerRuns(w.box)).toEqual([]);
    expect(dataOf(await call(w.session, "review_get", { review_id: p.review_id })).status).toBe("stale");
  });

  test("a file outside the roots is not material", async () => {
    const w = await open();
    const outside = join(w.box.root, "secret.txt");
    writeFileSync(outside, "x\n");
    expect(dataOf(await call(w.session, "review", { goal: "g", mode: "standard", material: [{ path: outside }] })).error?.code).toBe("material_invalid");
  });

  test("deep mode without host findings is refused (the token survives); with them they are recorded before any reviewer answers", async () => {
    const w = await open();
    const p = await plan(w.session, { mode: "deep" });
    expect(dataOf(await call(w.session, "review_run", { review_id: p.review_id, token: p.token })).error?.code).toBe("host_findings_required");
    expect(dataOf(await call(w.session, "review_run", { review_id: p.review_id, token: p.token, host_findings: [] })).error?.code).toBe(
      "host_findings_required",
    );
    expect(reviewerRuns(w.box)).toEqual([]);
    const ran = dataOf(
      await call(w.session, "review_run", { review_id: p.review_id, token: p.token, host_findings: [{ severity: "important", claim: "HOST-SAW-A-RACE" }] }),
    );
    expect(ran.status).toBe("awaiting_synthesis");
    expect(findingsOf(ran).map((f) => [f.id, f.source])).toEqual([
      ["H1", "host"],
      ["F1", "reviewer"],
      ["F2", "reviewer"],
      ["F3", "reviewer"],
    ]);
    const [host] = storeRows<{ at: number }>(w.box, "SELECT created_at AS at FROM review_findings WHERE source = 'host'");
    const [first] = storeRows<{ at: number }>(w.box, "SELECT min(started_at) AS at FROM review_reviewers");
    expect(host!.at).toBeLessThanOrEqual(first!.at);
  });

  test("reviewers run in parallel, one timing out keeps the others' findings, and review_retry completes it", async () => {
    // The first claude run outlives its 3 s limit; the retry answers at once (FAKE_DELAY_ONCE).
    const slow = {
      ...THREE.cl!,
      maxWallSec: 3,
      env: { FAKE_DELAY_MS: "30000", FAKE_DELAY_ONCE: join(tmpdir(), `orch-review-once-${process.pid}-${Date.now()}`) },
    };
    const w = await open({ ...THREE, cl: slow }, BOTH);
    const p = await plan(w.session, { mode: "deep" });
    const started = Date.now();
    const ran = dataOf(
      await call(w.session, "review_run", { review_id: p.review_id, token: p.token, host_findings: [{ severity: "minor", claim: "nothing serious" }] }),
    );
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(ran.status).toBe("incomplete");
    const byId = Object.fromEntries(reviewersOf(ran).map((r) => [r.id, r]));
    expect(byId.cl).toMatchObject({ status: "failed", error: { code: "timeout" }, findings: [] });
    expect(byId.oc?.findings).toHaveLength(1);
    expect(byId.cp?.findings).toHaveLength(1);
    expect(dataOf(await call(w.session, "review_finalize", finalizeArgs(p.review_id, []))).error?.code).toBe("review_incomplete");
    expect(dataOf(await call(w.session, "review_retry", { review_id: p.review_id, reviewers: ["oc"] })).error?.code).toBe("invalid_arguments");
    const retried = dataOf(await call(w.session, "review_retry", { review_id: p.review_id }));
    expect(retried.status).toBe("awaiting_synthesis");
    expect(reviewersOf(retried).find((r) => r.id === "cl")).toMatchObject({ status: "answered", findings: ["F3"] });
    // The findings from the first run are intact.
    expect(
      findingsOf(retried)
        .filter((f) => f.source === "reviewer")
        .map((f) => f.reviewer)
        .sort(),
    ).toEqual(["cl", "cp", "oc"]);
  }, 60_000);

  test("an unparseable reply is recorded as such, with what it said, and keeps the review from finalizing", async () => {
    const w = await open(
      { cl: { backend: "claude", model: "claude-opus-4-6", env: { FAKE_REVIEW_REPLY: "Looks fine to me, ship it." } } },
      { reviewers: ["cl"] },
    );
    const p = await plan(w.session, {});
    const ran = dataOf(await call(w.session, "review_run", { review_id: p.review_id, token: p.token }));
    expect(ran.status).toBe("incomplete");
    expect(reviewersOf(ran)[0]).toMatchObject({ status: "unparseable", reply: "Looks fine to me, ship it.", error: { code: "bad_output" } });
    // One repair turn was asked for, on the same session.
    expect(reviewerRuns(w.box)).toHaveLength(2);
    expect(dataOf(await call(w.session, "review_finalize", finalizeArgs(p.review_id, []))).error?.code).toBe("review_incomplete");
  });
});

function finalizeArgs(id: string, combined: unknown[]): Record<string, unknown> {
  return {
    review_id: id,
    summary: "s",
    recommendation: "r",
    checked: ["cache.ts"],
    not_checked: [],
    combined_findings: combined,
    agreements: [],
    disagreements: [],
  };
}

describe("review: finalize", () => {
  test("dropping one reviewer's critical is refused with that finding's id, even when the others disagree; a reason is needed to reject it", async () => {
    const agents = { ...THREE, cl: { ...THREE.cl!, env: { FAKE_REVIEW_REPLY: criticalReply("RACE-ON-PUT") } } };
    const w = await open(agents, BOTH);
    const p = await plan(w.session, { mode: "deep" });
    const ran = dataOf(await call(w.session, "review_run", { review_id: p.review_id, token: p.token, host_findings: [{ severity: "minor", claim: "fine" }] }));
    const critical = findingsOf(ran).find((f) => f.severity === "critical");
    expect(critical).toMatchObject({ reviewer: "cl", claim: "RACE-ON-PUT" });
    const others = findingsOf(ran)
      .filter((f) => f.severity !== "critical")
      .map((f) => f.id);
    const dropped = dataOf(await call(w.session, "review_finalize", finalizeArgs(p.review_id, [{ severity: "minor", claim: "all fine", sources: others }])));
    expect(dropped.error?.code).toBe("critical_finding_dropped");
    expect(dropped.error?.message).toContain(critical!.id);
    // Downgraded is dropped too.
    const downgraded = dataOf(
      await call(w.session, "review_finalize", finalizeArgs(p.review_id, [{ severity: "important", claim: "a race", sources: [critical!.id] }])),
    );
    expect(downgraded.error?.code).toBe("critical_finding_dropped");
    const noReason = dataOf(
      await call(
        w.session,
        "review_finalize",
        finalizeArgs(p.review_id, [{ severity: "critical", claim: "a race", sources: [critical!.id], disposition: "rejected" }]),
      ),
    );
    expect(noReason.error?.code).toBe("disposition_reason_required");
    expect(dataOf(await call(w.session, "review_get", { review_id: p.review_id })).status).toBe("awaiting_synthesis");
    const done = dataOf(
      await call(
        w.session,
        "review_finalize",
        finalizeArgs(p.review_id, [
          { severity: "critical", claim: "a race", sources: [critical!.id], disposition: "rejected", reason: "put runs under the store's lock" },
        ]),
      ),
    );
    expect(done).toMatchObject({ ok: true, status: "finalized" });
    expect(findingsOf(done).find((f) => f.id === critical!.id)).toMatchObject({ disposition: "rejected" });
    expect(done.not_carried).toEqual(others);
    expect(others[0]).toBe("H1");
    expect(dataOf(await call(w.session, "review_finalize", finalizeArgs(p.review_id, []))).error?.code).toBe("review_wrong_state");
  });
});

describe("review: the surface", () => {
  test("the tools and the prompt are absent without the config block, present with it", async () => {
    const plain = await open(THREE, null);
    const names = (await plain.session.client.listTools()).tools.map((t) => t.name);
    expect(names.filter((n) => n.startsWith("review"))).toEqual([]);
    expect((await plain.session.client.listPrompts()).prompts.map((p) => p.name)).not.toContain("review");
    await expect(plain.session.client.getPrompt({ name: "review", arguments: {} })).rejects.toThrow();
    await plain.close();
    const w = await open();
    const tools = (await w.session.client.listTools()).tools;
    expect(tools.map((t) => t.name).filter((n) => n.startsWith("review"))).toEqual([
      "review",
      "review_run",
      "review_finalize",
      "review_retry",
      "review_get",
      "review_list",
      "review_cancel",
    ]);
    expect(tools.find((t) => t.name === "review_run")?.execution).toEqual({ taskSupport: "optional" });
    const prompt = await w.session.client.getPrompt({ name: "review", arguments: { mode: "deep" } });
    const text = prompt.messages.map((m) => (m.content.type === "text" ? m.content.text : "")).join("");
    expect(text).toContain("host_findings");
    expect(text).toContain("ask the person");
    expect(w.box.recordings()).toEqual([]);
  });

  test("review_list, review_get and review_cancel: a cancelled plan's token is dead", async () => {
    const w = await open();
    const p = await plan(w.session, {});
    expect(dataOf(await call(w.session, "review_cancel", { review_id: p.review_id })).status).toBe("cancelled");
    expect(dataOf(await call(w.session, "review_run", { review_id: p.review_id, token: p.token })).error?.code).toBe("review_wrong_state");
    const listed = dataOf(await call(w.session, "review_list", {}));
    expect(listed.reviews).toEqual([expect.objectContaining({ id: p.review_id, status: "cancelled", reviewers: ["cl"] })]);
    expect(dataOf(await call(w.session, "review_get", { review_id: "nope" })).error?.code).toBe("unknown_review");
  });
});

describe("review: history", () => {
  test("delete_review takes the review, its findings and the job that ran it; delete-all of reviews needs its token", async () => {
    const w = await open(THREE, BOTH, { ORCHESTRATE_HISTORY_TOOLS: "1" });
    const p = await plan(w.session, { goal: "FORGET-THIS-GOAL" });
    await call(w.session, "review_run", { review_id: p.review_id, token: p.token });
    const kept = await plan(w.session, {});
    const gone = dataOf(await call(w.session, "delete_review", { id: p.review_id }));
    expect(gone.deleted).toEqual({ consultations: 0, runs: 0, reviews: 1, asks: 0, jobs: 1 });
    expect(storeRows<{ n: number }>(w.box, `SELECT count(*) AS n FROM review_findings WHERE review_id = '${p.review_id}'`)).toEqual([{ n: 0 }]);
    expect(dataOf(await call(w.session, "review_get", { review_id: p.review_id })).error?.code).toBe("unknown_review");
    const requested = dataOf(await call(w.session, "request_delete_all", { kind: "reviews" }));
    expect(requested.would_delete).toEqual({ consultations: 0, runs: 0, reviews: 1, asks: 0, jobs: 0 });
    expect(dataOf(await call(w.session, "review_get", { review_id: kept.review_id })).ok).toBe(true);
    const confirmed = dataOf(await call(w.session, "confirm_delete_all", { token: requested.token }));
    expect(confirmed.deleted).toMatchObject({ reviews: 1 });
    expect(dataOf(await call(w.session, "review_list", {})).reviews).toEqual([]);
  });
});
