/**
 * A long ask becomes a job like a long route (issue 23): seed 002's default request_timeout_s of
 * 120 s is honoured instead of being cut at the sync budget. The sync budget is scaled down to 1 s
 * and the loopback provider answers after 3 s, so the call always outlives it; nothing here is timed.
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { textOf, type ClientSession, type ToolReply } from "../../fakes/lib/mcp-client.ts";
import { connectInProcess } from "../../fakes/lib/in-process.ts";
import { makeSandbox, type Sandbox } from "../../fakes/lib/sandbox.ts";
import { startFakeProvider } from "../../fakes/lib/fake-provider.ts";

const KEY = ["sk", "proj", "AskJobK3yTh4tMustN3v3rL34k0ut77"].join("-");
const p = startFakeProvider({ keys: { openai: KEY } });
afterAll(() => p.stop());

let box: Sandbox | undefined;
let session: ClientSession | undefined;
afterEach(async () => {
  await session?.close().catch(() => undefined);
  session = undefined;
  box?.cleanup();
  box = undefined;
});

let n = 0;
/** A capability whose one deployment answers after `delayMs`; the limits are seed 002's defaults (no limits block). */
async function open(delayMs: number): Promise<{ s: ClientSession; model: string }> {
  const model = `slow-${++n}`;
  p.script(model, { kind: "ok", text: `Late answer from ${model}.`, delayMs });
  box = makeSandbox({ ORCHESTRATE_SYNC_BUDGET_S: "1", OPENAI_KEY: KEY });
  box.writeConfig(`ask:\n  capabilities:\n    coding:\n      deployments: [{ model: openai/${model}, baseUrl: "${p.openaiBase}", apiKeyEnv: OPENAI_KEY }]\n`);
  session = await connectInProcess(box.env);
  return { s: session, model };
}

type Envelope = { ok: boolean; content: string | null; model_used: string | null; error: unknown };

async function waitDone(s: ClientSession, id: string, progress: string[]): Promise<ToolReply> {
  for (;;) {
    const reply = (await s.client.callTool({ name: "job_wait", arguments: { id, waitSec: 1 } }, undefined, {
      onprogress: (m) => progress.push(String(m.message)),
    })) as ToolReply;
    if (reply.structuredContent?.status !== "running") return reply;
  }
}

describe("a long ask", () => {
  test("outlives the sync budget as a job: job_wait and job_status read its envelope, progress says which deployment", async () => {
    const { s, model } = await open(3000);
    const limits = (await s.client.callTool({ name: "list_capabilities", arguments: {} })) as ToolReply;
    // Seed 002's default, no longer lowered to the sync budget.
    expect((limits.structuredContent?.limits as { request_timeout_s: number }).request_timeout_s).toBe(120);
    const progress: string[] = [];
    const first = (await s.client.callTool({ name: "ask", arguments: { capability: "coding", prompt: "q" } }, undefined, {
      onprogress: (m) => progress.push(String(m.message)),
    })) as ToolReply;
    expect(first.isError).toBeFalsy();
    const job = first.structuredContent?.job as { id: string; status: string };
    expect(job.status).toBe("running");
    expect(textOf(first)).toContain("job_wait");
    const done = await waitDone(s, job.id, progress);
    expect(done.isError).toBeFalsy();
    expect(done.structuredContent?.kind).toBe("ask");
    expect(done.structuredContent?.status).toBe("ok");
    expect(textOf(done)).toContain(`Late answer from ${model}.`);
    const stored = (done.structuredContent?.result as { envelope: Envelope }).envelope;
    expect(stored).toMatchObject({ ok: true, content: `Late answer from ${model}.`, model_used: `openai/${model}`, error: null });
    expect(progress.some((m) => m.includes("coding: openai/"))).toBe(true);
    const status = (await s.client.callTool({ name: "job_status", arguments: { id: job.id } })) as ToolReply;
    expect(status.structuredContent?.status).toBe("ok");
    expect(p.received(model)).toHaveLength(1);
  }, 60_000);

  test("background: true answers with the job at once; a fast ask still answers in its envelope", async () => {
    const { s, model } = await open(0);
    const direct = (await s.client.callTool({ name: "ask", arguments: { capability: "coding", prompt: "q" } })) as ToolReply;
    expect(direct.structuredContent).toMatchObject({ ok: true, content: `Late answer from ${model}.`, error: null });
    const bg = (await s.client.callTool({ name: "ask", arguments: { capability: "coding", prompt: "q", background: true } })) as ToolReply;
    const done = await waitDone(s, (bg.structuredContent?.job as { id: string }).id, []);
    expect(done.structuredContent?.status).toBe("ok");
  }, 60_000);

  test("runs as an MCP task to its real end: the result is the envelope", async () => {
    const { s, model } = await open(3000);
    const tools = await s.client.listTools();
    expect(tools.tools.find((t) => t.name === "ask")?.execution).toEqual({ taskSupport: "optional" });
    let final: ToolReply | undefined;
    for await (const message of s.client.experimental.tasks.callToolStream(
      { name: "ask", arguments: { capability: "coding", prompt: "q" } },
      CallToolResultSchema,
      { task: { ttl: 60_000 } },
    )) {
      if (message.type === "result") final = message.result as ToolReply;
      if (message.type === "error") throw message.error;
    }
    expect(final?.structuredContent).toMatchObject({ ok: true, content: `Late answer from ${model}.`, model_used: `openai/${model}` });
  }, 60_000);
});
