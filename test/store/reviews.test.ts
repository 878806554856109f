/** Reviews in the store: one claim per token across handles, findings numbered, redacted before insert, deleted whole. */
import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import init001 from "../../src/store/migrations/001_init.sql" with { type: "text" };
import { APPLICATION_ID } from "../../src/store/ownership.ts";
import type { CreateReviewInput } from "../../src/store/reviews.ts";
import { mustOpen, rawBytes, SECRETS, tmpStorePath } from "./tmp.ts";

function review(extra: Partial<CreateReviewInput> = {}): CreateReviewInput {
  return {
    mode: "deep",
    goal: "Is the cache safe?",
    plan: { reviewers: ["a", "b"] },
    material: [{ label: "cache.ts", text: "const x = 1;" }],
    materialText: "const x = 1;",
    hostRuntime: "claude",
    token: { sha256: "hash-1", binding: "bind-1", expiresAt: 10_000 },
    reviewers: [
      { agentId: "a", backend: "codex", model: "gpt-5.5" },
      { agentId: "b", backend: "gemini" },
    ],
    now: 100,
    ...extra,
  };
}

describe("reviews", () => {
  test("a token is claimed once, by one of eight spenders, even across two handles on the file", () => {
    const path = tmpStorePath();
    const one = mustOpen(path);
    const two = mustOpen(path);
    const id = one.reviews.create(review());
    const outcomes = Array.from({ length: 8 }, (_, i) => (i % 2 ? one : two).reviews.claim(id, "hash-1", 200).outcome);
    expect(outcomes.filter((o) => o === "claimed")).toHaveLength(1);
    expect(outcomes.filter((o) => o === "invalid")).toHaveLength(7);
    expect(one.reviews.get(id)).toMatchObject({ status: "approving", tokenSpentAt: 200 });
    one.close();
    two.close();
  });

  test("a wrong, expired or unknown token claims nothing", () => {
    const store = mustOpen(tmpStorePath());
    const id = store.reviews.create(review());
    expect(store.reviews.claim(id, "nope", 200).outcome).toBe("invalid");
    expect(store.reviews.claim("missing", "hash-1", 200).outcome).toBe("unknown");
    expect(store.reviews.claim(id, "hash-1", 10_000).outcome).toBe("expired");
    expect(store.reviews.get(id)?.status).toBe("expired");
    store.close();
  });

  test("host findings are H1…, each reviewer's F…, numbered across the review; finalize sets dispositions once", () => {
    const store = mustOpen(tmpStorePath());
    const id = store.reviews.create(review());
    store.reviews.claim(id, "hash-1", 200);
    expect(store.reviews.transition(id, ["approving"], "running", { approval: "token", secrets: "mask", jobId: "J1" })).toBe(true);
    expect(store.reviews.addHostFindings(id, [{ severity: "important", claim: "host saw a race" }])).toEqual(["H1"]);
    store.reviews.startReviewers(id, ["a", "b"]);
    const a = store.reviews.finishReviewer(id, "a", {
      status: "answered",
      summary: "two issues",
      findings: [
        { severity: "critical", location: "cache.ts:3", claim: "unbounded", evidence: "no eviction" },
        { severity: "minor", claim: "naming" },
      ],
      modelVerified: "verified",
      usage: { inputTokens: 5 },
      latencyMs: 10,
    });
    const b = store.reviews.finishReviewer(id, "b", {
      status: "unparseable",
      reply: "I think it is fine, mostly.",
      modelVerified: "unverified",
      latencyMs: 12,
    });
    expect([a, b]).toEqual([["F1", "F2"], []]);
    const got = store.reviews.get(id);
    expect(got?.findings.map((f) => [f.id, f.source, f.agentId, f.severity, f.disposition])).toEqual([
      ["H1", "host", null, "important", "open"],
      ["F1", "reviewer", "a", "critical", "open"],
      ["F2", "reviewer", "a", "minor", "open"],
    ]);
    expect(got?.reviewers.map((r) => [r.agentId, r.status, r.attempts, r.reply])).toEqual([
      ["a", "answered", 1, null],
      ["b", "unparseable", 1, "I think it is fine, mostly."],
    ]);
    expect(store.usage.summary().map((s) => [s.agentId, s.inputTokens])).toEqual([
      ["a", 5],
      ["b", 0],
    ]);
    expect(store.reviews.finalize(id, { summary: "x" }, [{ id: "F1", disposition: "rejected", reason: "not reachable" }])).toBe(false);
    expect(store.reviews.transition(id, ["running"], "awaiting_synthesis")).toBe(true);
    expect(store.reviews.finalize(id, { summary: "x" }, [{ id: "F1", disposition: "rejected", reason: "not reachable" }])).toBe(true);
    expect(store.reviews.finalize(id, { summary: "again" }, [])).toBe(false);
    expect(store.reviews.get(id)?.findings.find((f) => f.id === "F1")).toMatchObject({ disposition: "rejected", dispositionReason: "not reachable" });
    expect(store.reviews.list()).toEqual([
      expect.objectContaining({ id, status: "finalized", reviewers: ["a", "b"], findings: { critical: 1, important: 1, minor: 1 } }),
    ]);
    store.close();
  });

  test("goal, material, claims and replies are redacted before insert; metadata-only keeps none of them", () => {
    for (const fullContent of [true, false]) {
      const path = tmpStorePath();
      const store = mustOpen(path, { fullContent });
      const leak = `token ${SECRETS.github}`;
      const id = store.reviews.create(review({ goal: leak, material: [{ label: "env", text: leak }], materialText: leak }));
      store.reviews.claim(id, "hash-1", 200);
      store.reviews.addHostFindings(id, [{ severity: "minor", claim: leak, evidence: leak }]);
      store.reviews.startReviewers(id, ["a"]);
      store.reviews.finishReviewer(id, "a", { status: "unparseable", reply: leak, errorMessage: leak, modelVerified: "unverified", latencyMs: 1 });
      store.close();
      expect(rawBytes(path)).not.toContain(SECRETS.github);
      const again = mustOpen(path, { fullContent });
      const got = again.reviews.get(id);
      if (fullContent) expect(got?.goal).toContain("[REDACTED:github]");
      else expect([got?.goal, got?.material, got?.findings[0]?.claim, got?.reviewers[0]?.reply]).toEqual([null, undefined, null, null]);
      again.close();
    }
  });

  test("delete takes reviewers, findings, usage and the jobs that ran it; a running review stays", () => {
    const store = mustOpen(tmpStorePath());
    const done = store.reviews.create(review());
    const live = store.reviews.create(review({ token: { sha256: "hash-2", binding: "b", expiresAt: 10_000 } }));
    store.reviews.claim(live, "hash-2", 200);
    store.reviews.transition(done, ["planned"], "cancelled");
    const job = store.jobs.create({ kind: "review", args: { review_id: done }, ownerStartedAt: 1 });
    store.jobs.finish(job, { status: "ok", result: { review_id: done } });
    expect(store.reviews.count()).toBe(1);
    expect(store.reviews.delete(live)).toBe("running");
    expect(store.reviews.delete(done)).toBe("deleted");
    expect(store.jobs.get(job)).toBeUndefined();
    expect(store.db.query("SELECT count(*) AS n FROM review_reviewers WHERE review_id = $id").get({ id: done })).toEqual({ n: 0 });
    expect(store.reviews.delete(done)).toBe("not_found");
    expect(store.reviews.deleteAll()).toBe(0);
    store.close();
  });

  test("a version-1 store migrates: its jobs and usage survive the table rebuild, and review jobs fit", () => {
    const path = tmpStorePath();
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    const raw = new Database(path, { create: true });
    raw.run(init001);
    raw.run(
      `INSERT INTO jobs (id, kind, status, owner_pid, owner_started_at, args_json, created_at, updated_at) VALUES ('J1', 'consult', 'ok', 1, 1, '{}', 1, 1)`,
    );
    raw.run(`INSERT INTO usage (source, ref_id, ref_n, agent_id, backend, latency_ms, created_at) VALUES ('turn', 'C1', 1, 'a', 'codex', 5, 1)`);
    expect(() =>
      raw.run(
        `INSERT INTO jobs (id, kind, status, owner_pid, owner_started_at, args_json, created_at, updated_at) VALUES ('J2', 'review', 'ok', 1, 1, '{}', 1, 1)`,
      ),
    ).toThrow();
    raw.run(`PRAGMA user_version = 1; PRAGMA application_id = ${APPLICATION_ID}`);
    raw.close();
    const store = mustOpen(path);
    expect(store.jobs.get("J1")?.kind).toBe("consult");
    expect(store.usage.summary().map((s) => [s.agentId, s.calls])).toEqual([["a", 1]]);
    expect(store.jobs.get(store.jobs.create({ kind: "review", args: {}, ownerStartedAt: 1 }))?.kind).toBe("review");
    expect(store.reviews.list()).toEqual([]);
    store.close();
  });
});
