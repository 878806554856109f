/**
 * Volume version of the kill paths (test/e2e/cancel.test.ts proves each once): many runs whose
 * fake ignores SIGTERM and leaves a SIGTERM-ignoring grandchild, ended by the three ways a run
 * ends early — its own timeout, notifications/cancelled, job_cancel — several at a time on one
 * server. Afterwards no recorded pid may survive, every call must have been answered, and the
 * store must say how each run ended. Default 20 runs; STRESS=1 runs 100.
 */
import { afterAll, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { connect, type ClientSession, type ToolReply } from "../../fakes/lib/mcp-client.ts";
import { makeSandbox, type Sandbox } from "../../fakes/lib/sandbox.ts";
import { openStore } from "../../src/store/db.ts";
import { alive, attemptsOf, elapsed, pool, recordedPids, scale, waitFor } from "./helpers.ts";

const RUNS = scale(20, 100);
const CONCURRENCY = scale(8, 10);

// light: the hanging fake under a 1 s wall limit (ends by timeout); heavy: the same fake unlimited
// (ends only when cancelled).
const CONFIG = `agents:
  timed: { backend: claude, model: opus, env: { FAKE_CLAUDE_SCENARIO: hang }, limits: { maxWallSec: 1 } }
  open: { backend: claude, model: opus, env: { FAKE_CLAUDE_SCENARIO: hang } }
tiers: { light: [timed], standard: null, heavy: [open] }
`;

type Kind = "timeout" | "cancelled" | "job_cancel";
const KINDS: Kind[] = ["timeout", "cancelled", "job_cancel"];

let box: Sandbox | undefined;
let session: ClientSession | undefined;

afterAll(async () => {
  await session?.close().catch(() => undefined);
  box?.cleanup();
});

/** prompt → pid of the fake that received it, from the fakes' recordings (parsed once each). */
const seen = new Map<string, number>();
const parsed = new Set<string>();
function fakePidFor(prompt: string): number | undefined {
  for (const file of readdirSync(box!.records)) {
    if (!file.startsWith("claude-") || parsed.has(file)) continue;
    try {
      const rec = JSON.parse(readFileSync(join(box!.records, file), "utf8")) as { pid: number; prompt?: string };
      // The fake records once at start (no prompt yet), then again with the prompt.
      if (rec.prompt === undefined) continue;
      parsed.add(file);
      seen.set(rec.prompt.trim(), rec.pid);
    } catch {
      // Still being written: read it on the next poll.
    }
  }
  return seen.get(prompt);
}

/** Resolves once the fake for `prompt` has started its grandchild and begun ignoring SIGTERM. */
async function hanging(prompt: string): Promise<number> {
  const pid = await waitFor(() => fakePidFor(prompt), 30_000, `the fake for ${prompt}`);
  await waitFor(() => (recordedPids(box!.records, "hangers").includes(pid) ? true : undefined), 30_000, `${prompt} to hang`);
  return pid;
}

const routeArgs = (prompt: string, tier: string, extra: Record<string, unknown> = {}) => ({
  name: "route",
  arguments: { prompt, cwd: box!.repo, tier, ...extra },
});

async function runOne(i: number): Promise<{ kind: Kind; answered: string }> {
  const kind = KINDS[i % KINDS.length] as Kind;
  const prompt = `reliability run ${i}`;
  const s = session!;
  if (kind === "timeout") {
    const reply = (await s.client.callTool(routeArgs(prompt, "light"), undefined, { timeout: 60_000 })) as ToolReply;
    expect(reply.isError).toBe(true);
    expect(attemptsOf(reply).map((a) => [a.outcome, a.fellBack])).toEqual([["timeout", false]]);
    return { kind, answered: "timeout" };
  }
  if (kind === "cancelled") {
    const abort = new AbortController();
    const pending = s.client.callTool(routeArgs(prompt, "heavy"), undefined, { signal: abort.signal, timeout: 60_000 });
    await hanging(prompt);
    abort.abort("reliability: cancel");
    // The SDK settles a cancelled request on the client side; the server must not answer it.
    const outcome = await pending.then(
      () => "answered",
      (error: unknown) => String(error),
    );
    expect(outcome).toContain("cancel");
    return { kind, answered: "cancelled" };
  }
  const first = (await s.client.callTool(routeArgs(prompt, "heavy", { background: true }))) as ToolReply;
  const job = first.structuredContent?.job as { id: string };
  const pid = await hanging(prompt);
  const cancelled = (await s.client.callTool({ name: "job_cancel", arguments: { id: job.id } })) as ToolReply;
  expect(cancelled.structuredContent?.status).toBe("cancelled");
  // job_cancel answers after the group is gone, not merely signalled.
  expect(alive(pid)).toBe(false);
  return { kind, answered: "job_cancel" };
}

test(
  `${RUNS} timeout/cancel runs with SIGTERM-ignoring grandchildren leave no survivor`,
  async () => {
    const started = performance.now();
    box = makeSandbox({});
    box.writeConfig(CONFIG);
    session = await connect(box.env);

    const results = await pool(
      CONCURRENCY,
      Array.from({ length: RUNS }, (_, i) => () => runOne(i)),
    );
    expect(results).toHaveLength(RUNS);

    const hangers = recordedPids(box.records, "hangers");
    const grandchildren = recordedPids(box.records, "grandchildren");
    const cancelledRuns = results.filter((r) => r.kind !== "timeout").length;
    // Every cancelled run waited for its hanger; timed runs usually get there within their 1 s too.
    expect(hangers.length).toBeGreaterThanOrEqual(cancelledRuns);
    expect(grandchildren.length).toBeGreaterThanOrEqual(cancelledRuns);
    const all = [...hangers, ...grandchildren];
    const survivors = await waitFor(() => (all.some(alive) ? undefined : all.filter(alive)), 15_000, "every recorded pid to die").catch(() =>
      all.filter(alive),
    );
    expect(survivors).toEqual([]);

    // The server is still up, and the store says how each run ended.
    const tiers = (await session.client.callTool({ name: "list_tiers", arguments: {} })) as ToolReply;
    expect(tiers.isError).toBeFalsy();
    const store = openStore(box.dbPath, { readonly: true });
    if (!store.ok) throw new Error(store.error.message);
    try {
      const runs = await waitFor(
        () => {
          const rows = store.value.runs.listRuns({ limit: 10_000 }).filter((r) => r.prompt?.startsWith("reliability run "));
          return rows.length === RUNS && rows.every((r) => r.status !== "running") ? rows : undefined;
        },
        15_000,
        "every run to be finished in the store",
      );
      const count = (status: string) => runs.filter((r) => r.status === status).length;
      expect({ failed: count("failed"), cancelled: count("cancelled") }).toEqual({ failed: RUNS - cancelledRuns, cancelled: cancelledRuns });
      expect(runs.filter((r) => r.status === "failed").every((r) => r.errorCode === "timeout")).toBe(true);
    } finally {
      store.value.close();
    }
    process.stderr.write(`[reliability] kill volume: ${RUNS} runs, ${hangers.length} hangers, ${grandchildren.length} grandchildren, ${elapsed(started)} ms\n`);
  },
  scale(120_000, 600_000),
);
