/** A job kind shapes its result once: a live result and the same result read back from the store answer alike. */
import { describe, expect, test } from "bun:test";
import { JOB_KINDS } from "../../src/mcp/tools/jobs/kinds.ts";
import { viewOutcome } from "../../src/mcp/tools/jobs/view.ts";
import type { JobView } from "../../src/services/shared/jobs.ts";
import type { RouteOutcome } from "../../src/services/route/index.ts";
import type { ConsultEnvelope } from "../../src/services/consult/index.ts";

const failedRoute: RouteOutcome = {
  ok: false,
  runId: "run-1",
  attempts: [
    {
      n: 1,
      agent: "broken",
      tier: "standard",
      backend: "claude",
      provider: "anthropic",
      outcome: "task_failed",
      reason: "bad model",
      durationMs: 1200,
      exitCode: 1,
      fellBack: false,
      treeChanged: false,
    },
  ],
  error: { code: "task_failed", message: "The delegate failed.", hint: "Try another tier." },
};

const answered: ConsultEnvelope = {
  ok: true,
  consultation_id: "c-1",
  agent: "cx",
  backend: "codex",
  model: "gpt-5.5",
  model_verification: "verified",
  content: { answer: "Use a trie.", assumptions: [], uncertainties: [], follow_up_questions: [], sources: [] },
  usage: {},
  latency_ms: 100,
  capability_requested: "coding",
  source_mode_used: "model",
  route: { agent_id: "cx", runtime: "codex", model: "gpt-5.5", capability_score: 90, priority: 10, explicitly_selected: false },
};

function view(over: Partial<JobView>): JobView {
  return {
    id: "job-1",
    kind: "route",
    status: "failed",
    progress: null,
    partialOutput: null,
    errorCode: null,
    errorMessage: null,
    treeChanged: null,
    createdAt: 0,
    updatedAt: 0,
    result: null,
    ownedHere: false,
    ...over,
  };
}

describe("job kinds", () => {
  test("a failed route is a failure with the route's code, live or read back from JSON", async () => {
    const live = JOB_KINDS.route.shape(failedRoute);
    expect(live).toMatchObject({ ok: false, error: { code: "task_failed" } });
    expect(await JOB_KINDS.route.shapeStored(JSON.parse(JSON.stringify(failedRoute)))).toEqual(live);
  });

  test("a consult answer reads back the same way", async () => {
    const live = JOB_KINDS.consult.shape(answered);
    expect(live.ok).toBe(true);
    expect(await JOB_KINDS.consult.shapeStored(JSON.parse(JSON.stringify(answered)))).toEqual(live);
  });

  test("a stored value that is not the kind's result is not shaped", async () => {
    expect(await JOB_KINDS.route.shapeStored({ ok: "yes" })).toBeUndefined();
  });

  test("a finished job's view carries its kind's failure; a job with nothing to read fails with its record's code", async () => {
    const failed = await viewOutcome(view({ result: failedRoute, errorCode: "task_failed" }), "job-1");
    expect(failed).toMatchObject({ ok: false, error: { code: "task_failed" }, data: { status: "failed" } });
    const died = await viewOutcome(view({ errorCode: "server_died", errorMessage: "The server exited." }), "job-1");
    expect(died).toMatchObject({ ok: false, error: { code: "server_died", message: "The server exited." } });
    const running = await viewOutcome(view({ status: "running" }), "job-1");
    expect(running.ok).toBe(true);
  });
});
