/**
 * Long runs: a call that outlives the client's request timeout completes for the user as a job;
 * progress flows throughout; a killed server's job is reconciled to failed with partial output;
 * job_cancel ends the whole group. Scaled down so CI stays fast: an ~8 s run and a 1 s sync budget.
 * What makes a long run survive a client's timeout is that the answer (a job) comes at the budget,
 * so the client's timeout is set well above it (15 s): on a loaded machine, starting the server and
 * the delegate must not race the timeout. The progress test holds a 6 s timeout against the 8 s
 * run. STRESS=1 runs the real 3-minute run under a 60 s timeout. Each test has its own sandbox
 * and spawned servers; the four that only wait run concurrently (see longRun).
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { connect, textOf, type McpSession, type ToolReply } from "../../fakes/lib/mcp-client.ts";
import { makeSandbox, type Sandbox } from "../../fakes/lib/sandbox.ts";

const STRESS = process.env.STRESS === "1";
const EVENTS = STRESS ? 360 : 16;
const CLIENT_TIMEOUT_MS = STRESS ? 60_000 : 15_000;
const SYNC_BUDGET_S = STRESS ? "50" : "1";

const LONG = `agents:
  worker: { backend: claude, model: opus, env: { FAKE_CLAUDE_SCENARIO: long, FAKE_EVENTS: "${EVENTS}", FAKE_EVENT_GAP_MS: "500" } }
  hanger: { backend: claude, model: opus, env: { FAKE_CLAUDE_SCENARIO: hang } }
tiers: { light: [hanger], standard: null, heavy: [worker] }
`;

/** standard = one claude that fails terminally (a bad model): no fallback, a route error with a code. */
const FAILING = `agents:
  broken: { backend: claude, model: opus, env: { FAKE_CLAUDE_SCENARIO: bad-model } }
tiers: { light: null, standard: [broken], heavy: null }
`;

/** One test's own sandbox and the servers it started: nothing is shared, so the tests run at once. */
interface World {
  box: Sandbox;
  open: (config?: string) => Promise<McpSession>;
}

/**
 * A test in its own sandbox with its own spawned servers. The ones that mostly wait (on a job, a
 * kill, a cancel) run `concurrently`, so their waits overlap; the two that hold a client timeout
 * against the server's answer run alone, or six servers starting at once on two cores could
 * answer later than the timeout allows.
 */
function longRun(
  name: string,
  body: (w: World) => Promise<void>,
  timeoutMs: number,
  opts: { concurrently?: boolean; env?: Record<string, string> } = {},
): void {
  (opts.concurrently ? test.concurrent : test)(
    name,
    async () => {
      const box = makeSandbox({ ORCHESTRATE_SYNC_BUDGET_S: SYNC_BUDGET_S, ...opts.env });
      const sessions: McpSession[] = [];
      const open = async (config = LONG) => {
        box.writeConfig(config);
        const s = await connect(box.env);
        sessions.push(s);
        return s;
      };
      try {
        await body({ box, open });
      } finally {
        for (const s of sessions) await s.close().catch(() => undefined);
        box.cleanup();
      }
    },
    timeoutMs,
  );
}

type Job = { id: string; status: string; instruction: string };

async function waitDone(s: McpSession, id: string, progress: string[]): Promise<ToolReply> {
  for (;;) {
    const reply = (await s.client.callTool({ name: "job_wait", arguments: { id, waitSec: 1 } }, undefined, {
      timeout: CLIENT_TIMEOUT_MS,
      onprogress: (p) => progress.push(String(p.message)),
    })) as ToolReply;
    if (reply.structuredContent?.status !== "running") return reply;
  }
}

describe("long runs", () => {
  longRun(
    "a run longer than the sync budget comes back as a job, well inside the client's timeout, and completes through job_wait",
    async ({ box, open }) => {
      const s = await open();
      const progress: string[] = [];
      const first = (await s.client.callTool({ name: "route", arguments: { prompt: "big task", cwd: box.repo, tier: "heavy" } }, undefined, {
        timeout: CLIENT_TIMEOUT_MS,
        onprogress: (p) => progress.push(String(p.message)),
      })) as ToolReply;
      expect(first.isError).toBeFalsy();
      const job = first.structuredContent?.job as Job;
      expect(job.status).toBe("running");
      expect(textOf(first)).toContain("job_wait");
      const done = await waitDone(s, job.id, progress);
      expect(done.structuredContent?.status).toBe("ok");
      expect(textOf(done)).toContain("PONG-FROM-FAKE");
      expect((done.structuredContent?.result as { servedBy: { agent: string } }).servedBy.agent).toBe("worker");
      expect(progress.some((m) => m.includes("attempt 1/1 · heavy:worker"))).toBe(true);
      // What the delegate is doing rides on the progress lines. Which of its steps a poll happens to
      // catch depends on the machine's load (the fake alternates thinking, `npm test` and a write
      // every 500 ms), so any of them proves it.
      expect(progress.some((m) => /running npm test|finished npm test|editing FAKE_LONG_|thinking/.test(m))).toBe(true);
    },
    300_000,
  );

  longRun(
    "progress resets a client's timeout: a sync call longer than the timeout still succeeds",
    async ({ box, open }) => {
      const s = await open();
      const progress: string[] = [];
      const reply = (await s.client.callTool({ name: "route", arguments: { prompt: "big task", cwd: box.repo, tier: "heavy" } }, undefined, {
        timeout: 6000,
        resetTimeoutOnProgress: true,
        maxTotalTimeout: 300_000,
        onprogress: (p) => progress.push(String(p.message)),
      })) as ToolReply;
      expect(reply.isError).toBeFalsy();
      expect(textOf(reply)).toContain("PONG-FROM-FAKE");
      expect(progress.length).toBeGreaterThanOrEqual(3);
    },
    300_000,
    { env: { ORCHESTRATE_SYNC_BUDGET_S: "600" } },
  );

  longRun(
    "background: true returns the id at once; job_status shows progress",
    async ({ box, open }) => {
      const s = await open();
      const first = (await s.client.callTool({ name: "route", arguments: { prompt: "bg", cwd: box.repo, tier: "heavy", background: true } })) as ToolReply;
      const job = first.structuredContent?.job as Job;
      expect(job.status).toBe("running");
      const status = (await s.client.callTool({ name: "job_status", arguments: { id: job.id } })) as ToolReply;
      expect(status.structuredContent?.status).toBe("running");
      const done = await waitDone(s, job.id, []);
      expect(done.structuredContent?.status).toBe("ok");
    },
    300_000,
    { concurrently: true },
  );

  longRun(
    "a failed background route comes back from job_wait and job_status as isError with the route's code",
    async ({ box, open }) => {
      const s = await open(FAILING);
      const args = { prompt: "fails", cwd: box.repo, tier: "standard" };
      const direct = (await s.client.callTool({ name: "route", arguments: args })) as ToolReply;
      expect(direct.isError).toBe(true);
      const code = (direct.structuredContent?.error as { code: string }).code;
      const first = (await s.client.callTool({ name: "route", arguments: { ...args, background: true } })) as ToolReply;
      expect(first.isError).toBeFalsy();
      const job = first.structuredContent?.job as Job;
      const done = await waitDone(s, job.id, []);
      expect(done.isError).toBe(true);
      expect(done.structuredContent?.status).toBe("failed");
      expect((done.structuredContent?.error as { code: string }).code).toBe(code);
      expect(textOf(done)).toContain(`[${code}]`);
      const status = (await s.client.callTool({ name: "job_status", arguments: { id: job.id } })) as ToolReply;
      expect(status.isError).toBe(true);
      expect((status.structuredContent?.error as { code: string }).code).toBe(code);
    },
    60_000,
    { concurrently: true },
  );

  longRun(
    "killing the server mid-job and starting again shows the job failed with partial output",
    async ({ box, open }) => {
      const s = await open();
      const first = (await s.client.callTool({ name: "route", arguments: { prompt: "bg", cwd: box.repo, tier: "heavy", background: true } })) as ToolReply;
      const job = first.structuredContent?.job as Job;
      // Wait until the job has written some partial output, then SIGKILL the server.
      for (let i = 0; i < 200; i++) {
        const st = (await s.client.callTool({ name: "job_status", arguments: { id: job.id } })) as ToolReply;
        if (String(st.structuredContent?.partialOutput ?? "").includes("npm test")) break;
        await Bun.sleep(50);
      }
      process.kill(s.pid!, "SIGKILL");
      const again = await open();
      const view = (await again.client.callTool({ name: "job_status", arguments: { id: job.id } })) as ToolReply;
      expect(view.structuredContent?.status).toBe("failed");
      expect(textOf(view)).toContain("server_died");
      expect(String(view.structuredContent?.partialOutput)).toContain("npm test");
    },
    60_000,
    { concurrently: true },
  );

  longRun(
    "job_cancel ends the whole group and records cancelled with partial output",
    async ({ box, open }) => {
      const s = await open();
      const first = (await s.client.callTool({ name: "route", arguments: { prompt: "bg", cwd: box.repo, tier: "light", background: true } })) as ToolReply;
      const job = first.structuredContent?.job as Job;
      const pidsFile = join(box.records, "grandchildren");
      for (let i = 0; i < 400 && !existsSync(pidsFile); i++) await Bun.sleep(25);
      const pids = [...readFileSync(join(box.records, "hangers"), "utf8").trim().split("\n"), ...readFileSync(pidsFile, "utf8").trim().split("\n")].map(Number);
      const cancelled = (await s.client.callTool({ name: "job_cancel", arguments: { id: job.id } })) as ToolReply;
      expect(cancelled.structuredContent?.status).toBe("cancelled");
      expect(String(cancelled.structuredContent?.partialOutput)).toContain("starting");
      for (const pid of pids) expect(liveProcess(pid)).toBe(false);
    },
    60_000,
    { concurrently: true },
  );
});

function liveProcess(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return !stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return false;
  }
}
