/**
 * Deleting history removes its bytes from the file, including the copies SQLite left behind when
 * the row was updated earlier (src/store/db.ts turns secure_delete on for the connection that
 * writes; src/store/erase.ts checkpoints the WAL after an erase).
 */
import { describe, expect, test } from "bun:test";
import { mustOpen, rawBytes, tmpStorePath } from "./tmp.ts";
import type { Store } from "../../src/store/db.ts";

/** A finished route run and its job, each written several times, all carrying `marker`. */
function runWithUpdates(store: Store, marker: string): string {
  const prompt = `${marker} prompt ${"p".repeat(300)}`;
  const runId = store.runs.startRun({ tool: "route", tier: "heavy", cwd: "/w/p", prompt, startedAt: 1000 });
  const jobId = store.jobs.create({ kind: "route", args: { prompt, runId }, ownerPid: process.pid, ownerStartedAt: Date.now() });
  for (let i = 0; i < 5; i++) {
    store.jobs.setProgress(jobId, `attempt 1/1 · step ${i}`, 2000 + i);
    store.jobs.appendPartial(jobId, `${marker} partial ${i}\n`);
    store.jobs.flush();
  }
  store.runs.addAttempt({
    runId,
    n: 1,
    agentId: "a",
    backend: "claude",
    provider: "anthropic",
    outcome: "ok",
    reason: "",
    exitCode: 0,
    durationMs: 5,
    fellBack: false,
  });
  store.runs.finishRun(runId, { status: "ok", servedBy: "a", answer: `${marker} answer`, treeChanged: false, endedAt: 9000 });
  store.jobs.finish(jobId, { status: "ok", result: { answer: `${marker} answer`, runId }, treeChanged: false });
  return runId;
}

describe("erased history is gone from the database bytes", () => {
  test("delete_run: no copy of the prompt, the partial output or the answer is left in the file or the WAL", () => {
    const path = tmpStorePath();
    const store = mustOpen(path);
    // Among other runs, so its old copies share pages that stay in use.
    for (let i = 0; i < 5; i++) runWithUpdates(store, `OTHER-${i}`);
    const gone = runWithUpdates(store, "FORGET-THIS-PROMPT");
    const kept = runWithUpdates(store, "KEEP-THIS-ONE");
    for (let i = 5; i < 10; i++) runWithUpdates(store, `OTHER-${i}`);
    expect(store.runs.deleteRun(gone)).toBe("deleted");
    expect(store.runs.getRun(kept)).toBeDefined();
    const bytes = rawBytes(path);
    expect(bytes.includes("FORGET-THIS-PROMPT")).toBe(false);
    expect(bytes.includes("KEEP-THIS-ONE")).toBe(true);
    store.close();
    expect(rawBytes(path).includes("FORGET-THIS-PROMPT")).toBe(false);
  });

  test("delete-all: nothing of any run is left", () => {
    const path = tmpStorePath();
    const store = mustOpen(path);
    for (let i = 0; i < 20; i++) runWithUpdates(store, `DELETE-ALL-${i}-MARK`);
    store.runs.deleteRuns();
    store.jobs.deleteAll();
    store.close();
    expect(rawBytes(path).match(/DELETE-ALL-\d+-MARK/g)).toBeNull();
  });
});
