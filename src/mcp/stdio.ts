/**
 * JSON-RPC over stdio, by hand: newline-delimited messages in, one line per message out. Unlike the
 * SDK's transport it answers what it cannot accept — unparsable JSON (-32700), a malformed envelope
 * (-32600), an oversized message — instead of dropping it (a client would wait forever) or closing
 * the connection (every pending call would be lost).
 */
import { LineSplitter } from "../process/lines.ts";
import { messageWriter } from "../safety/egress.ts";

/** A prompt may be 1,000,000 characters (up to ~4 MB of UTF-8) plus context; far above that is hostile. */
export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

export type JsonRpcId = string | number;
export type Message = Record<string, unknown> & { jsonrpc: "2.0" };

export interface Wire {
  onMessage: (message: Message) => void;
  send(message: Record<string, unknown>): void;
  closed: Promise<void>;
}

export function stdioWire(input: NodeJS.ReadableStream = process.stdin, output?: NodeJS.WritableStream): Wire {
  // Every message out — replies, errors, progress and log notifications — is scrubbed here.
  const write = messageWriter(output);
  const wire: Wire = {
    onMessage: () => undefined,
    send: write,
    closed: Promise.resolve(),
  };
  const splitter = new LineSplitter((line) => {
    const verdict = readMessage(line, splitter.truncated > truncatedSeen);
    truncatedSeen = splitter.truncated;
    if ("message" in verdict) wire.onMessage(verdict.message);
    else if (verdict.reply) wire.send(verdict.reply);
  }, MAX_MESSAGE_BYTES);
  let truncatedSeen = 0;
  wire.closed = new Promise<void>((resolve) => {
    input.on("data", (chunk: Buffer) => splitter.push(chunk));
    input.once("end", () => {
      splitter.flush();
      resolve();
    });
    input.once("close", () => resolve());
    input.once("error", () => resolve());
  });
  return wire;
}

type Verdict = { message: Message } | { reply?: Record<string, unknown> };

/** Checks the JSON-RPC 2.0 envelope; what fails gets its error reply (none for a bad notification). */
export function readMessage(line: string, truncated: boolean): Verdict {
  if (!line.trim()) return {};
  if (truncated) return { reply: errorReply(idIn(line), -32600, `Message larger than ${MAX_MESSAGE_BYTES} bytes; it was not processed.`) };
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { reply: errorReply(null, -32700, "Parse error: the line is not JSON.") };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return { reply: errorReply(null, -32600, "Invalid Request: expected one JSON-RPC object per line (batches are not supported).") };
  const msg = value as Record<string, unknown>;
  const id = validId(msg.id) ? msg.id : null;
  const problem = envelopeProblem(msg);
  if (problem) return "method" in msg && !("id" in msg) ? {} : { reply: errorReply(id, problem.code, problem.message) };
  return { message: msg as Message };
}

function envelopeProblem(msg: Record<string, unknown>): { code: number; message: string } | undefined {
  if (msg.jsonrpc !== "2.0") return { code: -32600, message: 'Invalid Request: "jsonrpc" must be "2.0".' };
  if ("id" in msg && !validId(msg.id)) return { code: -32600, message: "Invalid Request: id must be a string or a number." };
  if ("method" in msg) {
    if (typeof msg.method !== "string" || !msg.method) return { code: -32600, message: "Invalid Request: method must be a non-empty string." };
    if ("params" in msg && (typeof msg.params !== "object" || msg.params === null || Array.isArray(msg.params)))
      return { code: -32600, message: "Invalid Request: params must be an object (a structured value)." };
    return undefined;
  }
  if ("id" in msg && ("result" in msg || "error" in msg)) return undefined;
  return { code: -32600, message: "Invalid Request: no method, and not a response." };
}

function validId(id: unknown): id is JsonRpcId {
  return typeof id === "string" || (typeof id === "number" && Number.isFinite(id));
}

/** The id of a message too large to parse, read from its first bytes when it is there. */
function idIn(prefix: string): JsonRpcId | null {
  const match = /"id"\s*:\s*("(?:[^"\\]|\\.){0,200}"|-?\d{1,20})/.exec(prefix.slice(0, 4096));
  if (!match?.[1]) return null;
  try {
    const id: unknown = JSON.parse(match[1]);
    return validId(id) ? id : null;
  } catch {
    return null;
  }
}

export function errorReply(id: JsonRpcId | null, code: number, message: string): Record<string, unknown> {
  return { jsonrpc: "2.0", id, error: { code, message } };
}

export function resultReply(id: JsonRpcId, result: unknown): Record<string, unknown> {
  return { jsonrpc: "2.0", id, result };
}
