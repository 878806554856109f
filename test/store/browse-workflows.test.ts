/** The dashboard's workflow listing and job refs: keyset pages, the status filter, step counts, and each job kind's link target. */
import { describe, expect, test } from "bun:test";
import { JOB_KIND_VALUES, jobRef } from "../../src/store/browse/index.ts";
import type { Store } from "../../src/store/db.ts";
import { mustOpen, tmpStorePath } from "./tmp.ts";

const C = "c".repeat(40);

function workflow(store: Store, id: string, at: number, steps: [string, "succeeded" | "failed" | "planned" | "cancelled"][]): void {
  store.workflows.create({ id, goal: `goal of ${id}`, workdir: "/p", commit: C, snapshot: {}, now: at });
  steps.forEach(([step, status], i) => {
    const stepId = `${id}-s${i}`;
    store.workflows.addStep(
      {
        id: stepId,
        workflowId: id,
        step,
        round: 0,
        executor: "host",
        preview: {},
        context: "",
        promptSha256: "p",
        token: { sha256: "t", binding: "b", expiresAt: at + 10 },
        commitBefore: C,
      },
      at,
    );
    if (status !== "planned") store.workflows.finishStep(stepId, { status }, at + i);
  });
  store.workflows.update(id, {}, at + 100);
}

describe("browse.workflows", () => {
  test("newest activity first, keyset pages that neither skip nor repeat, filtered by status, with step counts and the last step that ran", () => {
    const store = mustOpen(tmpStorePath());
    workflow(store, "w1", 1000, [
      ["research", "succeeded"],
      ["plan", "failed"],
      ["plan", "succeeded"],
    ]);
    workflow(store, "w2", 2000, [
      ["research", "succeeded"],
      ["plan", "planned"],
    ]);
    workflow(store, "w3", 3000, [["research", "cancelled"]]);
    store.workflows.update("w1", { status: "needs_attention" }, 5000);
    const first = store.browse.workflows({ limit: 2 });
    expect(first.rows.map((w) => w.id)).toEqual(["w1", "w3"]);
    expect(first.next).toBe("w3");
    const second = store.browse.workflows({ limit: 2, before: first.next });
    expect(second.rows.map((w) => w.id)).toEqual(["w2"]);
    expect(second.next).toBeUndefined();
    const [w1] = store.browse.workflows({ status: "needs_attention" }).rows;
    expect(w1).toMatchObject({ id: "w1", goalHead: "goal of w1", steps: 3, failedSteps: 1, lastStep: { step: "plan", status: "succeeded" } });
    // A planned step has not run; a cancelled plan is not counted.
    expect(store.browse.workflows({ status: "active" }).rows.map((w) => [w.id, w.steps, w.lastStep?.step])).toEqual([
      ["w3", 0, undefined],
      ["w2", 2, "research"],
    ]);
    expect(store.browse.workflowsNeedingAttention()).toBe(1);
    store.close();
  });
});

describe("browse.jobs refs", () => {
  test("every job kind is listed, and each names what it delivered: a run, consultation, review or workflow", () => {
    const store = mustOpen(tmpStorePath());
    expect([...JOB_KIND_VALUES]).toEqual(["route", "consult", "review", "workflow_step", "ask"]);
    const made: [string, unknown, unknown][] = [
      ["route", { prompt: "p" }, { runId: "run-1" }],
      ["consult", { prompt: "p" }, { consultation_id: "con-1" }],
      ["review", { review_id: "rev-1", agents: ["a"] }, { ok: true }],
      ["workflow_step", { workflow_id: "wf-1", step_id: "st-1", review: { review_id: "rev-2" } }, undefined],
      ["ask", { capability: "fast", prompt: "p" }, { ask_id: "ask-1" }],
    ];
    made.forEach(([kind, args, result], i) => {
      const found = JOB_KIND_VALUES.find((k) => k === kind);
      if (!found) throw new Error(kind);
      const id = store.jobs.create({ kind: found, args, ownerStartedAt: 1, now: 1000 + i });
      if (result !== undefined) store.jobs.finish(id, { status: "ok", result, now: 2000 });
    });
    expect(store.browse.jobs().rows.map((j) => [j.kind, j.ref])).toEqual([
      ["ask", "ask-1"],
      ["workflow_step", "wf-1"],
      ["review", "rev-1"],
      ["consult", "con-1"],
      ["route", "run-1"],
    ]);
    expect(store.browse.jobs({ kind: "review" }).rows.map((j) => j.ref)).toEqual(["rev-1"]);
    // A job's own page reads the same ref from the record.
    for (const row of store.browse.jobs().rows) {
      const job = store.jobs.get(row.id);
      expect(job ? jobRef(job.kind, job.args, job.result) : "missing").toBe(row.ref);
    }
    store.close();
  });
});
