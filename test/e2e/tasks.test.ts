/** MCP Tasks with the SDK client: a long route runs as a task (create → status → result), and tasks/cancel ends its process group. */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CallToolResultSchema, CreateTaskResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { type ClientSession, type ToolReply } from "../../fakes/lib/mcp-client.ts";
import { connectInProcess } from "../../fakes/lib/in-process.ts";
import { makeSandbox, type Sandbox } from "../../fakes/lib/sandbox.ts";

let box: Sandbox | undefined;
let session: ClientSession | undefined;

afterEach(async () => {
  await session?.close().catch(() => undefined);
  box?.cleanup();
  box = undefined;
  session = undefined;
});

const CONFIG = `agents:
  worker: { backend: claude, model: opus, env: { FAKE_CLAUDE_SCENARIO: long, FAKE_EVENTS: "6", FAKE_EVENT_GAP_MS: "300" } }
  hanger: { backend: claude, model: opus, env: { FAKE_CLAUDE_SCENARIO: hang } }
  broken: { backend: claude, model: opus, env: { FAKE_CLAUDE_SCENARIO: bad-model } }
tiers: { light: [hanger], standard: [broken], heavy: [worker] }
`;

async function open(): Promise<ClientSession> {
  box = makeSandbox({ ORCHESTRATE_SYNC_BUDGET_S: "1" });
  box.writeConfig(CONFIG);
  session = await connectInProcess(box.env);
  return session;
}

describe("MCP tasks", () => {
  test("route runs as a task: created, polled, and its result fetched", async () => {
    const s = await open();
    const tools = await s.client.listTools();
    expect(tools.tools.find((t) => t.name === "route")?.execution).toEqual({ taskSupport: "optional" });
    const kinds: string[] = [];
    let final: { content?: { text?: string }[] } | undefined;
    for await (const message of s.client.experimental.tasks.callToolStream(
      { name: "route", arguments: { prompt: "x", cwd: box!.repo, tier: "heavy" } },
      undefined,
      { task: { ttl: 60_000 } },
    )) {
      kinds.push(message.type);
      if (message.type === "result") final = message.result as typeof final;
      if (message.type === "error") throw message.error;
    }
    expect(kinds[0]).toBe("taskCreated");
    expect(kinds.at(-1)).toBe("result");
    // The sync budget is 1 s, but a task waits for the real end instead of turning into a job.
    expect(final?.content?.map((c) => c.text).join("")).toContain("PONG-FROM-FAKE");
  }, 60_000);

  test("a failed route as a task ends failed, and tasks/result is isError with the route's code", async () => {
    const s = await open();
    const args = { prompt: "fails", cwd: box!.repo, tier: "standard" };
    const direct = (await s.client.callTool({ name: "route", arguments: args })) as ToolReply;
    expect(direct.isError).toBe(true);
    const code = (direct.structuredContent?.error as { code: string }).code;
    const created = await s.client.request({ method: "tools/call", params: { name: "route", arguments: args, task: { ttl: 60_000 } } }, CreateTaskResultSchema);
    // tasks/result blocks until the task is terminal, then answers what the call would have.
    const result = await s.client.experimental.tasks.getTaskResult(created.task.taskId, CallToolResultSchema);
    expect(result.isError).toBe(true);
    expect((result.structuredContent?.error as { code: string }).code).toBe(code);
    expect((await s.client.experimental.tasks.getTask(created.task.taskId)).status).toBe("failed");
  }, 60_000);

  test("tasks/cancel ends the task's whole process group", async () => {
    const s = await open();
    const created = await s.client.request(
      { method: "tools/call", params: { name: "route", arguments: { prompt: "x", cwd: box!.repo, tier: "light" }, task: { ttl: 60_000 } } },
      CreateTaskResultSchema,
    );
    const taskId = created.task.taskId;
    const grand = join(box!.records, "grandchildren");
    for (let i = 0; i < 400 && !existsSync(grand); i++) await Bun.sleep(25);
    const pids = [...readFileSync(join(box!.records, "hangers"), "utf8").trim().split("\n"), ...readFileSync(grand, "utf8").trim().split("\n")].map(Number);
    await s.client.experimental.tasks.cancelTask(taskId);
    const deadline = Date.now() + 10_000;
    while (pids.some(alive) && Date.now() < deadline) await Bun.sleep(50);
    expect(pids.filter(alive)).toEqual([]);
    expect((await s.client.experimental.tasks.getTask(taskId)).status).toBe("cancelled");
  }, 60_000);
});

function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return !stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return false;
  }
}
