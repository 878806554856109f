/**
 * Containment per backend (issue 15): for every backend whose `writes.isolatedWrite` is true, an
 * isolated_write step through its fake returns the edits, new files and deletions as the patch,
 * lists ignored files, and leaves the user's checkout byte-identical; a fake that writes outside
 * its worktree is caught and the step fails; a nested `git init` keeps the worktree and names it.
 * Every backend that is not containable is refused at load, naming the backend side.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { adapters } from "../../src/backends/index.ts";
import { openWorkflowWorld, seedConfig, type WorkflowWorld } from "./world.ts";

let world: WorkflowWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const AGENT_OF: Record<string, string> = { codex: "codex-sol", claude: "claude-opus", gemini: "gem" };
/** The implementer's fake edits; claude's steps other than implement are then the host's (its fake would edit in answer mode too). */
const SCENARIO = (backend: string): Record<string, string> => (backend === "claude" ? { FAKE_CLAUDE_SCENARIO: "edits-then-ok" } : {});
const CONTAINED = Object.values(adapters)
  .filter((a) => a.writes.isolatedWrite)
  .map((a) => a.backend);

/** Every file of the checkout (not .git), with its bytes: "byte-identical" compared literally. */
function snapshotTree(dir: string, prefix = ""): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(join(dir, prefix), { withFileTypes: true })) {
    if (entry.name === ".git") continue;
    const rel = join(prefix, entry.name);
    if (entry.isDirectory()) Object.assign(out, snapshotTree(dir, rel));
    else out[rel] = readFileSync(join(dir, rel)).toString("base64");
  }
  return out;
}

async function implement(w: WorkflowWorld): Promise<Awaited<ReturnType<WorkflowWorld["call"]>>> {
  const wf = String((await w.call("workflow_start", { goal: "g", workdir: w.box.repo })).workflow_id);
  for (const s of ["research", "plan", "author_execution_prompt"]) {
    const p = await w.call("workflow_plan_step", { workflow_id: wf, step: s, context: "c" });
    await w.call(p.executor === "host" ? "workflow_record_host_step" : "workflow_run_step", { workflow_id: wf, step_id: p.step_id, token: p.token });
  }
  const p = await w.call("workflow_plan_step", { workflow_id: wf, step: "implement", context: "c" });
  return w.call("workflow_run_step", { workflow_id: wf, step_id: p.step_id, token: p.token });
}

test("the backends declared containable are the ones proven below (codex, claude, gemini)", () => {
  expect(CONTAINED.sort()).toEqual(["claude", "codex", "gemini"]);
});

describe.each(CONTAINED)("isolated_write on %s", (backend) => {
  test("edits, new files and deletions come back as the patch; ignored files are listed; the checkout is byte-identical", async () => {
    const w = (world = await openWorkflowWorld(seedConfig({ implement: AGENT_OF[backend], hostResearch: backend === "claude" }), SCENARIO(backend)));
    const before = snapshotTree(w.box.repo);
    const headBefore = w.git("rev-parse", "HEAD");
    const out = await implement(w);
    expect(out.error).toBeUndefined();
    expect(out.status).toBe("awaiting_host_apply");
    const result = out.result as { patch: string; files: { status: string; path: string }[]; ignored: string[] };
    expect(result.files).toEqual(
      expect.arrayContaining([
        { status: "M", path: "README.md" },
        { status: "A", path: "NEW_FILE.txt" },
        { status: "D", path: "DELETE_ME.txt" },
      ]),
    );
    expect(result.patch).toContain("+created by fake");
    expect(result.ignored).toEqual(["ignored/"]);
    expect(snapshotTree(w.box.repo)).toEqual(before);
    expect(w.git("rev-parse", "HEAD")).toBe(headBefore);
    // The worktree is deleted after capture.
    expect(readdirSync(join(w.box.root, "state", "worktrees"), { recursive: true }).filter((p) => String(p).split("/").length === 2)).toEqual([]);
  }, 30_000);

  test("a write outside the worktree (into the checkout) is caught and the step fails", async () => {
    const w = (world = await openWorkflowWorld(seedConfig({ implement: AGENT_OF[backend], hostResearch: backend === "claude" }), {
      FAKE_MUTATION: "outside",
      FAKE_OUTSIDE_DIR: "<repo>",
      ...SCENARIO(backend),
    }));
    const out = await implement(w);
    expect(out.error?.code).toBe("containment_breach");
    expect(existsSync(join(w.box.repo, "ESCAPED.txt"))).toBe(true);
  }, 30_000);
});

test("a nested git init fails the step and keeps the worktree, with its path in the error", async () => {
  const w = (world = await openWorkflowWorld(seedConfig(), { FAKE_MUTATION: "nested-git" }));
  const out = await implement(w);
  expect(out.error?.code).toBe("nested_repository");
  const path = /kept at (\S+) /.exec(out.error?.message ?? "")?.[1] ?? "";
  expect(path).toContain(join(w.box.root, "state", "worktrees"));
  expect(existsSync(join(path, "sub", "a.txt"))).toBe(true);
}, 30_000);
