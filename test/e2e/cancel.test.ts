/**
 * Cancel and shutdown end the whole process group — a grandchild that ignores SIGTERM included —
 * and the pending call is answered.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { connect, type McpSession, type ToolReply } from "../../fakes/lib/mcp-client.ts";
import { makeSandbox, type Sandbox } from "../../fakes/lib/sandbox.ts";
import { openStore } from "../../src/store/db.ts";

/** Each test's own sandbox and spawned server, ended afterwards: nothing is shared, so the tests run at once. */
const worlds: { box: Sandbox; session: McpSession }[] = [];
afterAll(async () => {
  for (const { box, session } of worlds) {
    await session.close().catch(() => undefined);
    box.cleanup();
  }
});

const HANG = `agents:
  h: { backend: claude, model: opus, env: { FAKE_CLAUDE_SCENARIO: hang } }
tiers: { light: null, standard: null, heavy: [h] }
`;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return !stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return false;
  }
}

async function waitFor<T>(probe: () => T | undefined, ms = 15_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error("timed out waiting");
    await Bun.sleep(25);
  }
}

/** The pids the hanging fake wrote: itself and its SIGTERM-ignoring grandchild. */
async function hangPids(records: string): Promise<number[]> {
  const read = (name: string) =>
    existsSync(join(records, name)) ? readFileSync(join(records, name), "utf8").trim().split("\n").filter(Boolean).map(Number) : [];
  return waitFor(() => {
    const pids = [...read("hangers"), ...read("grandchildren")];
    return pids.length >= 2 ? pids : undefined;
  });
}

async function startHang(): Promise<{ box: Sandbox; session: McpSession; pending: Promise<ToolReply>; pids: number[]; abort: AbortController }> {
  const box = makeSandbox({});
  box.writeConfig(HANG);
  const session = await connect(box.env);
  worlds.push({ box, session });
  const abort = new AbortController();
  const pending = session.client.callTool({ name: "route", arguments: { prompt: "x", cwd: box.repo, tier: "heavy" } }, undefined, {
    signal: abort.signal,
    timeout: 120_000,
  }) as Promise<ToolReply>;
  pending.catch(() => undefined);
  const pids = await hangPids(box.records);
  return { box, session, pending, pids, abort };
}

// Each mostly waits for a group to die (a grandchild that ignores SIGTERM is killed after its
// grace), so the three run concurrently.
describe("cancellation ends the whole group", () => {
  test.concurrent("notifications/cancelled kills the group and records the run cancelled", async () => {
    const { box, session, pending, pids, abort } = await startHang();
    expect(pids.every(alive)).toBe(true);
    abort.abort("user changed their mind");
    await expect(pending).rejects.toThrow();
    await waitFor(() => (pids.some(alive) ? undefined : true), 10_000);
    // The server is still up and answers, and the run is recorded as cancelled.
    const tiers = (await session.client.callTool({ name: "list_tiers", arguments: {} })) as ToolReply;
    expect(tiers.isError).toBeFalsy();
    const store = openStore(box.dbPath, { readonly: true });
    if (!store.ok) throw new Error(store.error.message);
    const status = await waitFor(() => {
      const run = store.value.runs.listRuns({ limit: 1 })[0];
      return run && run.status !== "running" ? run.status : undefined;
    });
    store.value.close();
    expect(status).toBe("cancelled");
  });

  test.concurrent("closing the transport (stdin) ends every live group", async () => {
    const { session, pids } = await startHang();
    await session.close();
    await waitFor(() => (pids.some(alive) ? undefined : true), 10_000);
  });

  test.concurrent("SIGTERM to the server ends every live group and answers the pending call", async () => {
    const { session, pending, pids } = await startHang();
    const serverPid = session.pid ?? 0;
    process.kill(serverPid, "SIGTERM");
    const reply = await pending;
    expect(reply.isError).toBe(true);
    expect((reply.structuredContent?.error as { code: string }).code).toBe("cancelled");
    await waitFor(() => (pids.some(alive) || alive(serverPid) ? undefined : true), 10_000);
  });
});
