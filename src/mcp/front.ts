/**
 * The server's front door. `initialize`, `tools/list` and `ping` — all a client needs at start-up —
 * are answered by hand from pre-generated data; the MCP SDK (and zod with it) is loaded only when
 * the first other message arrives, and is then handed the recorded handshake so it knows the client
 * exactly as if it had answered itself. Every client spawns the server at every start, and most
 * sessions list the tools and never call one: they should not pay for the SDK.
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { initializeResult } from "./info.ts";
import { activeTools } from "./tools/index.ts";
import { wireTool } from "./tools/wire.ts";
import { resultReply, stdioWire, type Message, type Wire } from "./stdio.ts";

export interface FrontOptions {
  env: Record<string, string | undefined>;
  wire?: Wire;
}

/** The id under which the recorded initialize is replayed to the SDK; its answer is dropped. */
const REPLAY_ID = "orchestrate-replayed-initialize";

export async function serveFront(opts: FrontOptions): Promise<void> {
  const wire = opts.wire ?? stdioWire();
  const handshake: { initialize?: Message; initialized: boolean } = { initialized: false };
  let sdk: Promise<SdkBridge> | undefined;
  wire.onMessage = (message) => {
    if (sdk) {
      void sdk.then((bridge) => bridge.deliver(message));
      return;
    }
    if (answerByHand(wire, message, handshake, opts.env)) return;
    sdk = bootSdk(wire, handshake, opts.env);
    void sdk.then((bridge) => bridge.deliver(message));
  };
  await wire.closed;
  if (sdk) await (await sdk).close();
}

function answerByHand(wire: Wire, message: Message, handshake: { initialize?: Message; initialized: boolean }, env: Record<string, string | undefined>): boolean {
  const id = message.id as string | number | undefined;
  switch (message.method) {
    case "initialize":
      if (id === undefined) return true;
      handshake.initialize = message;
      wire.send(resultReply(id, initializeResult(message.params)));
      return true;
    case "notifications/initialized":
      handshake.initialized = true;
      return true;
    case "tools/list":
      if (id === undefined) return true;
      wire.send(resultReply(id, { tools: activeTools(env).map(wireTool) }));
      return true;
    case "ping":
      if (id !== undefined) wire.send(resultReply(id, {}));
      return true;
    default:
      // Responses and notifications before the SDK exists answer nothing that is pending.
      return message.method === undefined || id === undefined;
  }
}

interface SdkBridge {
  deliver(message: Message): void;
  close(): Promise<void>;
}

async function bootSdk(wire: Wire, handshake: { initialize?: Message; initialized: boolean }, env: Record<string, string | undefined>): Promise<SdkBridge> {
  const [{ buildServer }, { log }] = await Promise.all([import("./server.ts"), import("../log.ts")]);
  log.debug("first message beyond the handshake: loading the MCP SDK");
  const server = buildServer(env);
  const transport = new WireTransport(wire);
  await server.connect(transport);
  if (handshake.initialize) transport.deliver({ ...handshake.initialize, id: REPLAY_ID } as Message);
  if (handshake.initialized) transport.deliver({ jsonrpc: "2.0", method: "notifications/initialized" });
  return { deliver: (message) => transport.deliver(message), close: () => server.close() };
}

/** The SDK's view of the wire. Drops the SDK's answer to the replayed initialize: the client already has one. */
class WireTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  constructor(private readonly wire: Wire) {}

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    if ("id" in message && message.id === REPLAY_ID && !("method" in message)) return;
    this.wire.send(message as Record<string, unknown>);
  }

  async close(): Promise<void> {
    this.onclose?.();
  }

  deliver(message: Message): void {
    this.onmessage?.(message as unknown as JSONRPCMessage);
  }
}
