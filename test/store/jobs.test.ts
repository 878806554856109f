import { describe, expect, test } from "bun:test";
import { PARTIAL_TAIL_CHARS } from "../../src/store/jobs.ts";
import { mustOpen, tmpStorePath } from "./tmp.ts";

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function deadPid(): Promise<number> {
  const child = Bun.spawn(["true"]);
  await child.exited;
  return child.pid;
}

describe("jobs", () => {
  test("create → progress → partial → finish; another Store reads it", () => {
    const path = tmpStorePath();
    const store = mustOpen(path);
    const id = store.jobs.create({ kind: "route", args: { prompt: "long task", tier: "heavy" }, ownerStartedAt: 123 });
    store.jobs.setProgress(id, "attempt 1/2 codex: running tests");
    store.jobs.appendPartial(id, "line one\nline t");
    store.jobs.appendPartial(id, "wo\n");
    const other = mustOpen(path);
    expect(other.jobs.get(id)).toMatchObject({
      status: "running",
      progress: "attempt 1/2 codex: running tests",
      partialOutput: "line one\nline two\n",
      args: { prompt: "long task", tier: "heavy" },
    });
    expect(store.jobs.finish(id, { status: "ok", result: { servedBy: "codex", answer: "all green" }, treeChanged: true })).toBe(true);
    expect(store.jobs.finish(id, { status: "cancelled" })).toBe(false);
    expect(other.jobs.get(id)).toMatchObject({ status: "ok", result: { servedBy: "codex", answer: "all green" }, treeChanged: true });
    expect(other.jobs.list().map((j) => j.id)).toEqual([id]);
    expect(other.jobs.list({ status: "running" })).toEqual([]);
    other.close();
    store.close();
  });

  test("an unterminated line is held back until finish, but the owner still sees it", () => {
    const path = tmpStorePath();
    const store = mustOpen(path);
    const reader = mustOpen(path);
    const id = store.jobs.create({ kind: "consult", args: {}, ownerStartedAt: 1 });
    store.jobs.appendPartial(id, "partial line");
    expect(reader.jobs.get(id)?.partialOutput).toBeNull();
    expect(store.jobs.get(id)?.partialOutput).toBe("partial line");
    store.jobs.finish(id, { status: "failed", errorCode: "timeout", errorMessage: "ran out of time" });
    expect(reader.jobs.get(id)).toMatchObject({ partialOutput: "partial line", errorCode: "timeout", status: "failed" });
    reader.close();
    store.close();
  });

  test("partial output keeps only a bounded tail, but counts everything", () => {
    const store = mustOpen(tmpStorePath());
    const id = store.jobs.create({ kind: "route", args: {}, ownerStartedAt: 1 });
    const line = `${"x".repeat(1023)}\n`;
    for (let i = 0; i < 100; i++) store.jobs.appendPartial(id, i === 99 ? line.replace("x", "E") : line);
    const job = store.jobs.get(id);
    expect(job?.partialOutput?.length).toBe(PARTIAL_TAIL_CHARS);
    expect(job?.partialOutput?.endsWith(`E${"x".repeat(1022)}\n`)).toBe(true);
    expect(job?.partialLength).toBe(100 * 1024);
    store.close();
  });

  test("reconcileOrphans fails a dead owner's job with server_died and keeps its output", async () => {
    const path = tmpStorePath();
    const store = mustOpen(path);
    const dead = await deadPid();
    const orphan = store.jobs.create({ kind: "route", args: { prompt: "p" }, ownerPid: dead, ownerStartedAt: 1 });
    store.jobs.appendPartial(orphan, "edited src/a.ts\nrunning tests\n");
    const mine = store.jobs.create({ kind: "route", args: {}, ownerStartedAt: 1 });
    const finished = store.jobs.create({ kind: "route", args: {}, ownerPid: dead, ownerStartedAt: 1 });
    store.jobs.finish(finished, { status: "ok", result: {} });
    store.close();

    const next = mustOpen(path);
    expect(next.jobs.reconcileOrphans((pid) => pidAlive(pid))).toEqual([orphan]);
    expect(next.jobs.get(orphan)).toMatchObject({ status: "failed", errorCode: "server_died", partialOutput: "edited src/a.ts\nrunning tests\n" });
    expect(next.jobs.get(mine)?.status).toBe("running");
    expect(next.jobs.get(finished)?.status).toBe("ok");
    expect(next.jobs.reconcileOrphans((pid) => pidAlive(pid))).toEqual([]);
    next.close();
  });

  test("reconcileOrphans passes the owner start time so a reused pid is caught", () => {
    const store = mustOpen(tmpStorePath());
    const id = store.jobs.create({ kind: "route", args: {}, ownerPid: process.pid, ownerStartedAt: 42 });
    const seen: Array<[number, number]> = [];
    const ids = store.jobs.reconcileOrphans((pid, startedAt) => {
      seen.push([pid, startedAt]);
      return startedAt !== 42;
    });
    expect(seen).toEqual([[process.pid, 42]]);
    expect(ids).toEqual([id]);
    store.close();
  });
});
