/**
 * A real MCP client talking to the server's own front door (src/mcp/front.ts) in this process,
 * over the same newline-delimited JSON-RPC and the same scrubbing writer as stdio
 * (src/mcp/stdio.ts), through a pair of in-memory streams. Everything behind the wire is the
 * product's code — config, store, runner, the fake CLIs as real subprocesses, real git — only the
 * server process is not spawned: a test pays for loading the SDK, arktype and the config once per
 * file instead of once per session (docs/testing.md).
 *
 * The server reads the process's environment, so a session owns it while open: one at a time
 * (and not while a command runs in-process, ./cli-in-process.ts), with `env` as the whole
 * environment, restored on close. Tests of what only a process shows — its
 * pid, stderr, exit, a kill, two servers on one store — use `connect` (./mcp-client.ts).
 */
import { PassThrough } from "node:stream";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { serveFront } from "../../src/mcp/front.ts";
import { stdioWire } from "../../src/mcp/stdio.ts";
import { shutdown } from "../../src/cli/serve.ts";
import { endServerLifetime } from "../../src/lifetime.ts";
import { log } from "../../src/log.ts";
import { checkedReplies, type ClientSession, type Elicitor } from "./mcp-client.ts";

export type InProcessSession = ClientSession;

export async function connectInProcess(env: Record<string, string>, opts: { clientName?: string; elicit?: Elicitor } = {}): Promise<InProcessSession> {
  const restore = takeProcess(env, "use connect() for two servers");
  // Start as a fresh process would, whatever this worker ran before: a test file earlier in the
  // same module registry (bun test --no-isolate) may have built the runtime by calling a service
  // directly, with its own environment, and never ended a server.
  await endServerLifetime();
  // A server process reads its log level once, at start (src/log.ts).
  const level = log.level;
  log.level = Number(env.ORCHESTRATE_LOG_LEVEL ?? 3);
  const toServer = new PassThrough();
  const fromServer = new PassThrough();
  const served = serveFront({ env: process.env, wire: stdioWire(toServer, fromServer) });
  const client = new Client({ name: opts.clientName ?? "orchestrate-tests", version: "1.0.0" }, opts.elicit ? { capabilities: { elicitation: {} } } : {});
  const elicit = opts.elicit;
  if (elicit) client.setRequestHandler(ElicitRequestSchema, async (request) => ({ action: await elicit(request.params.message) }));
  await client.connect(new StreamTransport(fromServer, toServer));
  checkedReplies(client);
  let closed: Promise<void> | undefined;
  return {
    client,
    close: () => {
      closed ??= (async () => {
        await client.close().catch(() => undefined);
        toServer.end();
        await served;
        // What the stdio server does once its stdin ends (src/cli/serve.ts), short of exiting.
        await shutdown();
        log.level = level;
        restore();
      })();
      return closed;
    },
  };
}

/** What holds the process now: an in-process session, or a command (./cli-in-process.ts). */
let holder: string | undefined;

/**
 * Takes the process for one in-process server or command: `env` is the whole environment until
 * the returned function puts the old one back and lets the next one in. One at a time, because
 * both read the process's environment as a process would; `otherwise` says what to use instead.
 */
export function takeProcess(env: Record<string, string>, otherwise: string, what = "an in-process session"): () => void {
  if (holder) throw new Error(`${holder} already holds this process: end it first, or ${otherwise}`);
  holder = what;
  const saved = { ...process.env };
  replaceEnv(env);
  return () => {
    replaceEnv(saved);
    holder = undefined;
  };
}

function replaceEnv(next: Record<string, string | undefined>): void {
  for (const key of Object.keys(process.env)) if (!(key in next)) delete process.env[key];
  for (const [key, value] of Object.entries(next)) if (value !== undefined) process.env[key] = value;
}

/** The client's end of the pair: the SDK's own line framing, as its stdio transport uses. */
class StreamTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly buffer = new ReadBuffer();

  constructor(
    private readonly input: PassThrough,
    private readonly output: PassThrough,
  ) {}

  async start(): Promise<void> {
    this.input.on("data", (chunk: Buffer) => {
      this.buffer.append(chunk);
      for (let message = this.next(); message; message = this.next()) this.onmessage?.(message);
    });
    this.input.once("end", () => this.onclose?.());
  }

  private next(): JSONRPCMessage | null {
    try {
      return this.buffer.readMessage();
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      return null;
    }
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.output.write(serializeMessage(message));
  }

  async close(): Promise<void> {
    this.input.removeAllListeners("data");
    this.onclose?.();
  }
}
