/**
 * Jobs are reconciled by pid *and* start time (issue 12 §6): after a reboot another program may
 * hold a dead server's pid, and its job must not stay `running` forever.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { connect, textOf, type ClientSession, type ToolReply } from "../../fakes/lib/mcp-client.ts";
import { makeSandbox, type Sandbox } from "../../fakes/lib/sandbox.ts";
import { openStore } from "../../src/store/db.ts";
import { ownerAlive, processStartMs } from "../../src/process/start-time.ts";

let box: Sandbox | undefined;
let session: ClientSession | undefined;
let stranger: ReturnType<typeof Bun.spawn> | undefined;
afterEach(async () => {
  await session?.close().catch(() => undefined);
  stranger?.kill("SIGKILL");
  box?.cleanup();
  box = session = stranger = undefined;
});

describe("a job whose owner's pid was reused", () => {
  test("the start time tells the owner from a stranger", () => {
    const started = processStartMs(process.pid);
    expect(started).toBeNumber();
    expect(Math.abs((started ?? 0) - (Date.now() - performance.now()))).toBeLessThan(5000);
    expect(ownerAlive(process.pid, Date.now())).toBe(true);
    expect(ownerAlive(process.pid, (started ?? 0) - 60_000)).toBe(false);
  });

  test("is reconciled to failed (server_died) when the next server starts", async () => {
    box = makeSandbox();
    box.writeConfig("tiers: { light: null, standard: null, heavy: null }\n");
    // A live process that started long after the job's owner recorded itself: a reused pid.
    stranger = Bun.spawn(["sleep", "60"]);
    const opened = openStore(box.dbPath);
    if (!opened.ok) throw new Error(opened.error.message);
    const id = opened.value.jobs.create({ kind: "route", args: { prompt: "x" }, ownerPid: stranger.pid, ownerStartedAt: Date.now() - 3_600_000 });
    opened.value.close();
    session = await connect(box.env);
    const view = (await session.client.callTool({ name: "job_status", arguments: { id } })) as ToolReply;
    expect(view.structuredContent?.status).toBe("failed");
    expect(textOf(view)).toContain("server_died");
  });
});
