import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { Store } from "../../src/store/db.ts";
import { mustOpen, tmpStorePath } from "./tmp.ts";

const WRITER = join(import.meta.dir, "fixtures", "writer.ts");

function spawnWriter(path: string, ...args: string[]) {
  return Bun.spawn([process.execPath, WRITER, path, ...args], { stdout: "pipe", stderr: "pipe" });
}

/** Reads stdout lines, calling `onLine` for each, until `stop` says so or the stream ends. */
async function readLines(stream: ReadableStream<Uint8Array>, onLine: (line: string) => boolean | void): Promise<void> {
  const decoder = new TextDecoder();
  let buffered = "";
  for await (const chunk of stream) {
    buffered += decoder.decode(chunk, { stream: true });
    let nl = buffered.indexOf("\n");
    while (nl >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      if (onLine(line) === true) return;
      nl = buffered.indexOf("\n");
    }
  }
}

function integrity(store: Store): string {
  return store.db.query<{ integrity_check: string }, []>("PRAGMA integrity_check").get()?.integrity_check ?? "";
}

function runsTagged(store: Store, tag: string) {
  return store.runs.listRuns({ limit: 1_000_000 }).filter((r) => r.prompt?.startsWith(`${tag} `));
}

describe("several OS processes on one file", () => {
  test("4 processes × 500 runs with attempts, started together on a fresh file: nothing lost", async () => {
    const path = tmpStorePath();
    const tags = ["p0", "p1", "p2", "p3"];
    const children = tags.map((tag) => spawnWriter(path, "bulk", tag, "500"));
    const codes = await Promise.all(children.map((c) => c.exited));
    const errors = await Promise.all(children.map((c) => new Response(c.stderr).text()));
    expect({ codes, errors }).toEqual({ codes: [0, 0, 0, 0], errors: ["", "", "", ""] });

    const store = mustOpen(path);
    for (const tag of tags) {
      const runs = runsTagged(store, tag);
      expect(runs.length).toBe(500);
      expect(runs.every((r) => r.status === "ok" && r.attemptCount === 2)).toBe(true);
    }
    const usage = store.usage.summary();
    expect(usage.length).toBe(8);
    expect(usage.every((u) => u.calls === 500)).toBe(true);
    expect(integrity(store)).toBe("ok");
    store.close();
  });

  test("SIGKILL inside an open transaction loses only that transaction", async () => {
    const path = tmpStorePath();
    const child = spawnWriter(path, "hold", "h", "20");
    await readLines(child.stdout, (line) => line === "inside");
    child.kill("SIGKILL");
    expect(await child.exited).not.toBe(0);

    const store = mustOpen(path);
    expect(runsTagged(store, "h").length).toBe(20);
    expect(store.runs.listRuns({ limit: 1000 }).some((r) => r.prompt?.includes("uncommitted"))).toBe(false);
    expect(integrity(store)).toBe("ok");
    // The file stays writable after the crash: the dead writer's lock is gone.
    store.runs.startRun({ tool: "route", cwd: "/w", prompt: "after crash" });
    store.close();
  });

  test("SIGKILL mid-stream of writes keeps every reported commit and integrity", async () => {
    const path = tmpStorePath();
    const child = spawnWriter(path, "loop", "k");
    let committed = 0;
    const track = (line: string) => {
      const n = Number(line.replace("committed ", ""));
      if (Number.isFinite(n)) committed = Math.max(committed, n);
    };
    await readLines(child.stdout, (line) => {
      track(line);
      return committed >= 150;
    });
    child.kill("SIGKILL");
    await readLines(child.stdout, track); // drain what it printed before dying
    await child.exited;

    const store = mustOpen(path);
    const runs = runsTagged(store, "k");
    // Everything it reported is there. More may be (its last "committed" lines can die in its own
    // stdout buffer), but only the one run in flight can be partial: each write is a transaction.
    expect(runs.length).toBeGreaterThanOrEqual(committed);
    const complete = runs.filter((r) => r.status === "ok" && r.attemptCount === 2);
    expect(complete.length).toBeGreaterThanOrEqual(committed);
    expect(runs.length - complete.length).toBeLessThanOrEqual(1);
    expect(integrity(store)).toBe("ok");
    store.close();
  });
});
