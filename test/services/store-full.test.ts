/**
 * A store that fills up after the delegate ran (SQLite's max_page_count stands in for a full
 * disk): the answer in hand still comes back, the failure is named store_unavailable, and no row
 * is left running once the store takes writes again (services/shared/jobs.ts, services/route).
 */
import { afterAll, describe, expect, test } from "bun:test";
import type { Database } from "bun:sqlite";
import { makeSandbox, type Sandbox } from "../../fakes/lib/sandbox.ts";
import { createRuntime } from "../../src/services/shared/runtime.ts";
import { routeTask } from "../../src/services/route/index.ts";
import { startJob } from "../../src/services/shared/jobs.ts";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { consult } from "../../src/services/consult/index.ts";
import { resolveHost } from "../../src/services/consult/target.ts";
import { planReview } from "../../src/services/review/plan.ts";
import { approveRun, runReviewers } from "../../src/services/review/run.ts";
import { startWorkflow } from "../../src/services/workflow/start.ts";
import { planStep } from "../../src/services/workflow/plan.ts";
import { executeStep, prepareStep } from "../../src/services/workflow/run.ts";
import { openWorkflowWorld, seedConfig } from "../workflow/world.ts";
import { mustOpen, tmpStorePath } from "../store/tmp.ts";

const boxes: Sandbox[] = [];
afterAll(() => {
  for (const box of boxes) box.cleanup();
});
/** A sandbox of the test's own: the tests share nothing but the process, so most run at once. */
function sandbox(env: Record<string, string> = {}): Sandbox {
  const box = makeSandbox(env);
  boxes.push(box);
  return box;
}

/** No page may be added from now on: the next write that needs one fails with SQLITE_FULL. */
function fill(db: Database): void {
  const pages = db.query<{ page_count: number }, []>("PRAGMA page_count").get()?.page_count ?? 0;
  db.run(`PRAGMA max_page_count = ${pages}`);
}

const BIG = "answer ".repeat(40_000);

async function until(probe: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!probe()) {
    if (Date.now() > end) throw new Error("timed out");
    await Bun.sleep(50);
  }
}

// Each waits out the store's 2 s retry of a refused write (src/services/shared/jobs.ts), so all but
// the workflow step run concurrently; that one opens an in-process session, which ends the
// server-lifetime state (held review scopes among it) that the others rely on, so it runs alone.
describe("a full store after the work ran", () => {
  test.concurrent("a job still returns its result, and its row is finished when the store takes writes again", async () => {
    const store = mustOpen(tmpStorePath());
    const { id, done } = startJob(
      { store },
      {
        kind: "route",
        args: { prompt: "x" },
        run: async () => {
          fill(store.db);
          return { ok: true, text: BIG };
        },
        verdict: () => ({ status: "ok" }),
      },
    );
    const end = await done;
    expect(end.ok && end.value.text).toBe(BIG);
    expect(store.jobs.get(id)?.status).toBe("running");
    store.db.run("PRAGMA max_page_count = 1073741823");
    await until(() => store.jobs.get(id)?.status === "ok", 10_000);
    store.close();
  });

  test.concurrent("a route returns the delegate's answer with a store_unavailable notice instead of internal_error", async () => {
    const box = sandbox();
    box.writeConfig(
      `agents:\n  a: { backend: claude, model: opus, env: { FAKE_REPLY: "${BIG.slice(0, 60_000)}" } }\ntiers: { light: null, standard: null, heavy: [a] }\n`,
    );
    const opened = await createRuntime(box.env);
    if (!opened.ok) throw new Error(opened.error.message);
    const rt = opened.value;
    // Full from the delegate's first progress on: the run's first row is in, the answer has no room.
    const pending = routeTask(rt, { prompt: "x", cwd: box.repo, tier: "heavy" }, { onProgress: () => fill(rt.store.db) });
    const outcome = await pending;
    expect(outcome.ok).toBe(true);
    expect(outcome.text).toContain("answer answer");
    expect(outcome.storeNotice).toContain("store_unavailable");
    const runId = outcome.runId ?? "";
    expect(rt.store.runs.getRun(runId)?.status).toBe("running");
    rt.store.db.run("PRAGMA max_page_count = 1073741823");
    await until(() => rt.store.runs.getRun(runId)?.status === "ok", 10_000);
    rt.store.close();
  });

  test.concurrent("a consult returns the agent's answer with a store_unavailable notice, and its turn is stored once the store takes writes", async () => {
    const box = sandbox({ ORCHESTRATE_HOST_RUNTIME: "gemini" });
    box.writeConfig("agents:\n  c: { backend: claude, model: claude-opus-4-6, scores: { coding: 80 } }\ntiers: { light: null, standard: null, heavy: null }\n");
    const opened = await createRuntime(box.env);
    if (!opened.ok) throw new Error(opened.error.message);
    const rt = opened.value;
    // Full from the first progress on: the consultation's row is in, its turn (with its context) has no room.
    const envelope = await consult(
      rt,
      { prompt: "Is this loop correct?", context: BIG.slice(0, 60_000), capability: "coding" },
      { onProgress: () => fill(rt.store.db) },
    );
    expect(envelope.ok).toBe(true);
    expect(envelope.content?.answer.length).toBeGreaterThan(0);
    expect(envelope.store_notice).toContain("store_unavailable");
    const id = envelope.consultation_id ?? "";
    expect(rt.store.consultations.get(id)?.turns.length ?? 0).toBe(0);
    rt.store.db.run("PRAGMA max_page_count = 1073741823");
    await until(() => (rt.store.consultations.get(id)?.turns.length ?? 0) === 1, 10_000);
    rt.store.close();
  });

  test.concurrent("a review returns its reviewer's answer with a store_unavailable notice, and the review ends once the store takes writes", async () => {
    const dir = mkdtempSync(join(tmpdir(), "store-full-review-"));
    const replyFile = join(dir, "reply.json");
    const summary = BIG.slice(0, 60_000);
    writeFileSync(
      replyFile,
      JSON.stringify({
        summary,
        findings: [{ severity: "minor", location: "material", claim: "FINDING-FROM-FAKE", evidence: "e" }],
        checked: ["x"],
        not_checked: [],
      }),
    );
    const box = sandbox({ ORCHESTRATE_HOST_RUNTIME: "gemini" });
    box.writeConfig(
      `agents:\n  r1: { backend: claude, model: claude-opus-4-6, env: { FAKE_REVIEW_REPLY_FILE: "${replyFile}" } }\nconsult:\n  review:\n    reviewers: [r1]\n`,
    );
    const opened = await createRuntime(box.env);
    if (!opened.ok) throw new Error(opened.error.message);
    const rt = opened.value;
    const host = resolveHost(rt, undefined);
    const plan = await planReview(rt, { goal: "Is it safe?", mode: "standard", material: [{ text: "const x = 1;" }] }, host.ok ? host.value : undefined);
    if (!plan.ok) throw new Error(plan.error.message);
    const approved = await approveRun(rt, { review_id: plan.value.review_id, token: plan.value.token }, undefined);
    if (!approved.ok) throw new Error(approved.error.message);
    // Full once the reviewers are recorded as started: the reviewer's answer has no room.
    let first = true;
    const onProgress = () => {
      if (first) setTimeout(() => fill(rt.store.db), 0);
      first = false;
    };
    const outcome = await runReviewers(rt, approved.value, { signal: new AbortController().signal, onProgress });
    expect(outcome.ok).toBe(true);
    expect(outcome.status).toBe("awaiting_synthesis");
    expect(outcome.store_notice).toContain("store_unavailable");
    expect(outcome.reviewers[0]?.summary).toBe(summary);
    expect(rt.store.reviews.get(plan.value.review_id)?.status).toBe("running");
    rt.store.db.run("PRAGMA max_page_count = 1073741823");
    await until(() => rt.store.reviews.get(plan.value.review_id)?.status === "awaiting_synthesis", 10_000);
    expect(rt.store.reviews.get(plan.value.review_id)?.findings.some((f) => f.claim === "FINDING-FROM-FAKE")).toBe(true);
    rt.store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("a workflow step returns its result with a store_unavailable notice, and the step ends once the store takes writes", async () => {
    const w = await openWorkflowWorld(seedConfig(), { FAKE_REPLY: BIG.slice(0, 60_000) });
    await w.session.close();
    const opened = await createRuntime(w.box.env);
    if (!opened.ok) throw new Error(opened.error.message);
    const rt = opened.value;
    try {
      const host = resolveHost(rt, undefined);
      if (!host.ok) throw new Error(host.error.message);
      const wf = await startWorkflow(rt, { goal: "add a greeting", workdir: w.box.repo }, host.value);
      if (!wf.ok) throw new Error(wf.error.message);
      const planned = await planStep(rt, { workflow_id: wf.value.workflow_id, step: "research", context: "README.md:\nhello\n" });
      if (!planned.ok) throw new Error(planned.error.message);
      const prepared = await prepareStep(rt, { workflow_id: wf.value.workflow_id, step_id: planned.value.step_id, token: planned.value.token }, undefined);
      if (!prepared.ok) throw new Error(prepared.error.message);
      // Full while the agent runs: the step's result has no room.
      setTimeout(() => fill(rt.store.db), 0);
      const outcome = await executeStep(rt, prepared.value, new AbortController().signal);
      expect(outcome.ok).toBe(true);
      expect(JSON.stringify(outcome.result)).toContain("answer answer");
      expect(outcome.store_notice).toContain("store_unavailable");
      expect(rt.store.workflows.step(planned.value.step_id)?.status).toBe("running");
      rt.store.db.run("PRAGMA max_page_count = 1073741823");
      await until(() => rt.store.workflows.step(planned.value.step_id)?.status === "succeeded", 10_000);
    } finally {
      rt.store.close();
      await w.close();
    }
  });
});
