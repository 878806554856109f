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
import { errorReply, resultReply, stdioWire, type Message, type Wire } from "./stdio.ts";

export interface FrontOptions {
  env: Record<string, string | undefined>;
  wire?: Wire;
}

/**
 * The id under which the recorded initialize is replayed to the SDK; its answer is dropped. A
 * client may use the same id: the replay is answered before any client message reaches the SDK,
 * and only that one answer is dropped (WireTransport), so the two never meet.
 */
const REPLAY_ID = "orchestrate-replayed-initialize";

/**
 * Before initialize only ping may be served (MCP lifecycle). JSON-RPC leaves -32000..-32099 to the
 * server; -32002 is the "server not initialized" code LSP uses for the same rule.
 */
const NOT_INITIALIZED = -32002;

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

function answerByHand(
  wire: Wire,
  message: Message,
  handshake: { initialize?: Message; initialized: boolean },
  env: Record<string, string | undefined>,
): boolean {
  const id = message.id as string | number | undefined;
  if (!handshake.initialize && id !== undefined && typeof message.method === "string" && message.method !== "initialize" && message.method !== "ping") {
    wire.send(errorReply(id, NOT_INITIALIZED, `Server not initialized: send initialize first (${message.method} was not run).`));
    return true;
  }
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
  const [{ buildServer }, { log }, { refusalFor }] = await Promise.all([import("./server.ts"), import("../log.ts"), import("./admit.ts")]);
  log.debug("first message beyond the handshake: loading the MCP SDK");
  const server = buildServer(env);
  const transport = new WireTransport(wire);
  await server.connect(transport);
  const replay = handshake.initialize && replayOf(handshake.initialize);
  // One the SDK would not take would never be answered, and everything after it would wait.
  if (replay && !refusalFor(replay)) await transport.replay(replay);
  if (handshake.initialized) transport.deliver({ jsonrpc: "2.0", method: "notifications/initialized" });
  const deliver = (message: Message) => {
    const refusal = refusalFor(message);
    if (refusal) wire.send(refusal);
    else transport.deliver(message);
  };
  return { deliver, close: () => server.close() };
}

/** The recorded initialize as the SDK is to see it: the envelope and the fields initialize defines. */
function replayOf(initialize: Message): Message {
  const params = (initialize.params ?? {}) as Record<string, unknown>;
  const { protocolVersion, capabilities, clientInfo } = params;
  return { jsonrpc: "2.0", id: REPLAY_ID, method: "initialize", params: { protocolVersion, capabilities, clientInfo } };
}

/** The SDK's view of the wire. Drops the SDK's answer to the replayed initialize: the client already has one. */
class WireTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private replayed: (() => void) | undefined;

  constructor(private readonly wire: Wire) {}

  async start(): Promise<void> {}

  /** Hands the SDK the recorded initialize and resolves once its answer has been dropped. */
  replay(initialize: Message): Promise<void> {
    const answered = new Promise<void>((resolve) => (this.replayed = resolve));
    this.deliver(initialize);
    return answered;
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.replayed && "id" in message && message.id === REPLAY_ID && !("method" in message)) {
      this.replayed();
      this.replayed = undefined;
      return;
    }
    this.wire.send(message as Record<string, unknown>);
  }

  async close(): Promise<void> {
    this.onclose?.();
  }

  deliver(message: Message): void {
    this.onmessage?.(message as unknown as JSONRPCMessage);
  }
}
