/** Planning a workflow step in the store: one write transaction supersedes planned steps and refuses while a step runs. */
import { expect, test } from "bun:test";
import type { NewStep } from "../../src/store/workflows.ts";
import { mustOpen, tmpStorePath } from "./tmp.ts";

const C = "c".repeat(40);
const step = (id: string): NewStep => ({
  id,
  workflowId: "w",
  step: "research",
  round: 0,
  executor: "agent",
  preview: {},
  context: "",
  promptSha256: "p",
  token: { sha256: `t-${id}`, binding: "b", expiresAt: 10_000 },
  commitBefore: C,
});

test("a new plan cancels the planned one; while a step runs, a plan changes nothing and names the running step", () => {
  const store = mustOpen(tmpStorePath());
  store.workflows.create({ id: "w", goal: "g", workdir: "/p", commit: C, snapshot: {}, now: 1 });
  expect(store.workflows.addStep(step("s1"), 2)).toMatchObject({ outcome: "planned", superseded: 0 });
  expect(store.workflows.addStep(step("s2"), 3)).toMatchObject({ outcome: "planned", superseded: 1 });
  expect(store.workflows.steps("w").map((s) => [s.id, s.status])).toEqual([
    ["s1", "cancelled"],
    ["s2", "planned"],
  ]);
  expect(store.workflows.spend("s2", "t-s2", 4)).toMatchObject({ outcome: "spent" });
  expect(store.workflows.addStep(step("s3"), 5)).toMatchObject({ outcome: "step_running", running: { id: "s2" } });
  expect(store.workflows.steps("w").map((s) => [s.id, s.status])).toEqual([
    ["s1", "cancelled"],
    ["s2", "running"],
  ]);
  store.close();
});
