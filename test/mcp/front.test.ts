/**
 * The hand-written front door: the handshake is answered without the SDK, identically to what the
 * SDK would say; what cannot be accepted gets a JSON-RPC error instead of silence or a shutdown.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { SUPPORTED_PROTOCOL_VERSIONS as SDK_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import { SUPPORTED_PROTOCOL_VERSIONS } from "../../src/mcp/info.ts";
import { makeSandbox, type Sandbox } from "../../fakes/lib/sandbox.ts";
import { RawServer, type Answer, type Id } from "../../fakes/lib/raw-rpc.ts";

let box: Sandbox | undefined;
let raw: RawServer | undefined;
afterEach(async () => {
  await raw?.close();
  box?.cleanup();
  raw = undefined;
  box = undefined;
});

type Reply = Answer & { result?: Record<string, unknown>; error?: { code?: unknown; message?: unknown } };

/** A server driven with raw lines; `reply(id)` waits for its answer to that id. */
function start(): { write: (line: string) => void; reply: (id: Id | null) => Promise<Reply>; stderr: () => string } {
  box = makeSandbox({ ORCHESTRATE_LOG_LEVEL: "4" });
  const server = new RawServer(box.env);
  raw = server;
  return {
    write: (line) => server.send(line),
    reply: async (id) => {
      const key = id as Id;
      const missing = await server.waitFor([key], 10_000);
      if (missing.length > 0) throw new Error(`no reply for id ${String(id)}`);
      return server.answersFor(key)[0] as Reply;
    },
    stderr: () => server.stderr,
  };
}

const INIT = (id: number, version = "2025-06-18") =>
  JSON.stringify({ jsonrpc: "2.0", id, method: "initialize", params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "t", version: "1" } } });

describe("front door", () => {
  test("speaks the SDK's protocol versions", () => {
    expect([...SUPPORTED_PROTOCOL_VERSIONS] as string[]).toEqual([...SDK_VERSIONS]);
  });

  test("initialize and tools/list are answered without loading the SDK, and equal the SDK's answers", async () => {
    const r = start();
    r.write(INIT(1));
    r.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
    r.write(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }));
    const init = await r.reply(1);
    expect(init.result?.protocolVersion).toBe("2025-06-18");
    expect(init.result?.serverInfo).toMatchObject({ name: "orchestrate" });
    const byHand = await r.reply(2);
    expect(r.stderr()).not.toContain("loading the MCP SDK");
    r.write(JSON.stringify({ jsonrpc: "2.0", id: 3, method: "prompts/list" }));
    expect((await r.reply(3)).result?.prompts).toBeDefined();
    expect(r.stderr()).toContain("loading the MCP SDK");
    r.write(JSON.stringify({ jsonrpc: "2.0", id: 4, method: "tools/list" }));
    expect((await r.reply(4)).result).toEqual(byHand.result as Record<string, unknown>);
  });

  test("an unknown protocol version is answered with the latest, as the SDK does", async () => {
    const r = start();
    r.write(INIT(1, "1999-01-01"));
    expect((await r.reply(1)).result?.protocolVersion).toBe(SDK_VERSIONS[0]);
  });

  test("malformed messages get JSON-RPC errors and the server stays up", async () => {
    const r = start();
    r.write(INIT(1));
    r.write("{not json");
    r.write(JSON.stringify({ jsonrpc: "1.0", id: 10, method: "tools/list" }));
    r.write(JSON.stringify({ jsonrpc: "2.0", id: 11, method: "tools/call", params: "route" }));
    r.write(JSON.stringify({ jsonrpc: "2.0", id: 12 }));
    r.write(JSON.stringify({ jsonrpc: "2.0", id: 13, method: 7 }));
    expect((await r.reply(null)).error?.code).toBe(-32700);
    expect((await r.reply(10)).error?.code).toBe(-32600);
    expect((await r.reply(11)).error?.code).toBe(-32600);
    expect((await r.reply(12)).error?.code).toBe(-32600);
    expect((await r.reply(13)).error?.code).toBe(-32600);
    r.write(JSON.stringify({ jsonrpc: "2.0", id: 14, method: "tools/list" }));
    expect((await r.reply(14)).result?.tools).toBeDefined();
  });

  test("a message over the size cap is refused by id, not a shutdown", async () => {
    const r = start();
    r.write(INIT(1));
    r.write(JSON.stringify({ jsonrpc: "2.0", id: 20, method: "tools/call", params: { name: "route", arguments: { prompt: "x".repeat(17 * 1024 * 1024) } } }));
    const refused = await r.reply(20);
    expect(refused.error?.code).toBe(-32600);
    expect(String(refused.error?.message)).toContain("larger than");
    r.write(JSON.stringify({ jsonrpc: "2.0", id: 21, method: "tools/list" }));
    expect((await r.reply(21)).result?.tools).toBeDefined();
  });
});
