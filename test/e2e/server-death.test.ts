/**
 * Delegates do not outlive their server (src/process/watchdog.ts), and a restarted server ends a
 * group a dead one left running before it says anything about that job (group-records.ts).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { connect, textOf, type McpSession, type ToolReply } from "../../fakes/lib/mcp-client.ts";
import { makeSandbox, type Sandbox } from "../../fakes/lib/sandbox.ts";
import { openStore } from "../../src/store/db.ts";
import { processStartMs } from "../../src/process/start-time.ts";

let box: Sandbox | undefined;
let session: McpSession | undefined;
const spawned: ReturnType<typeof Bun.spawn>[] = [];

afterEach(async () => {
  await session?.close().catch(() => undefined);
  for (const p of spawned.splice(0)) p.kill("SIGKILL");
  session = undefined;
  box?.cleanup();
  box = undefined;
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return !stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return false;
  }
}

async function waitFor<T>(probe: () => T | undefined, ms: number, what: string): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(25);
  }
}

const HANG = `agents:
  h: { backend: claude, model: opus, env: { FAKE_CLAUDE_SCENARIO: hang } }
tiers: { light: null, standard: null, heavy: [h] }
`;

describe("a server that dies takes its delegates with it", () => {
  test("SIGKILL mid-route: the fake and its SIGTERM-ignoring grandchild are gone within seconds", async () => {
    box = makeSandbox({});
    box.writeConfig(HANG);
    session = await connect(box.env);
    const pending = session.client.callTool({ name: "route", arguments: { prompt: "x", cwd: box.repo, tier: "heavy" } }, undefined, { timeout: 120_000 });
    pending.catch(() => undefined);
    const read = (name: string) =>
      existsSync(join(box!.records, name)) ? readFileSync(join(box!.records, name), "utf8").trim().split("\n").filter(Boolean).map(Number) : [];
    const pids = await waitFor(
      () => {
        const found = [...read("hangers"), ...read("grandchildren")];
        return found.length >= 2 ? found : undefined;
      },
      20_000,
      "the fake's pids",
    );
    expect(pids.every(alive)).toBe(true);
    const killedAt = Date.now();
    process.kill(session.pid ?? 0, "SIGKILL");
    // SIGTERM at once, SIGKILL after the watchdog's 2 s grace (both ignore SIGTERM).
    await waitFor(() => (pids.some(alive) ? undefined : true), 10_000, "the delegate's group to end");
    expect(Date.now() - killedAt).toBeLessThan(8000);
    session = undefined;
  });

  test("a restart ends a recorded group the dead server left running, then reports the job server_died", async () => {
    box = makeSandbox({});
    box.writeConfig("tiers: { light: null, standard: null, heavy: null }\n");
    // What a dead server (and a dead watchdog) left: a running group and its record, and a job row.
    const orphan = Bun.spawn(["sleep", "300"], { detached: true, stdio: ["ignore", "ignore", "ignore"] });
    spawned.push(orphan);
    const owner = Bun.spawn(["sleep", "300"]);
    spawned.push(owner);
    // The owner's pid answers, but that process started after the owner recorded itself: dead.
    const ownerStartedAt = Date.now() - 3_600_000;
    const groups = join(dirname(box.dbPath), "groups");
    mkdirSync(groups, { recursive: true });
    writeFileSync(
      join(groups, `${orphan.pid}.json`),
      JSON.stringify({ pid: orphan.pid, startedAt: processStartMs(orphan.pid), ownerPid: owner.pid, ownerStartedAt }),
    );
    const opened = openStore(box.dbPath);
    if (!opened.ok) throw new Error(opened.error.message);
    const id = opened.value.jobs.create({ kind: "route", args: { prompt: "x" }, ownerPid: owner.pid, ownerStartedAt });
    opened.value.close();
    expect(alive(orphan.pid)).toBe(true);
    session = await connect(box.env);
    const view = (await session.client.callTool({ name: "job_status", arguments: { id } })) as ToolReply;
    // Ended before the job was said to be dead.
    expect(alive(orphan.pid)).toBe(false);
    expect(view.structuredContent?.status).toBe("failed");
    expect(textOf(view)).toContain("server_died");
    expect(existsSync(join(groups, `${orphan.pid}.json`))).toBe(false);
  });
});
