/**
 * Requests the SDK would drop in silence. Its Protocol recognises a request only if the whole
 * message matches its strict JSON-RPC request schema — an object or a fraction as
 * `_meta.progressToken`, or an unknown top-level key, made it "Unknown message type" and the client
 * waited forever — and a request whose params fail the method's own schema came back as -32603
 * with zod's dump. Both are checked here first and answered as JSON-RPC says: -32600 for the
 * envelope, -32602 for the params. Loaded with the SDK (mcp/front.ts bootSdk), never at startup.
 */
import {
  CallToolRequestSchema,
  CancelTaskRequestSchema,
  GetPromptRequestSchema,
  GetTaskPayloadRequestSchema,
  GetTaskRequestSchema,
  InitializeRequestSchema,
  JSONRPCRequestSchema,
  ListPromptsRequestSchema,
  ListTasksRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { errorReply, type JsonRpcId, type Message } from "./stdio.ts";

type Schema = { safeParse(value: unknown): { success: boolean; error?: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } } };

/** The methods this server has handlers for, each with the schema the SDK parses its request with. */
const BY_METHOD = new Map<string, Schema>(
  [
    InitializeRequestSchema,
    PingRequestSchema,
    ListToolsRequestSchema,
    CallToolRequestSchema,
    ListPromptsRequestSchema,
    GetPromptRequestSchema,
    GetTaskRequestSchema,
    GetTaskPayloadRequestSchema,
    ListTasksRequestSchema,
    CancelTaskRequestSchema,
  ].map((s) => [s.shape.method.value, s]),
);

/** The error reply for a request the SDK could not take, or undefined to hand it over. */
export function refusalFor(message: Message): Record<string, unknown> | undefined {
  if (!("method" in message) || !("id" in message)) return undefined;
  const id = message.id as JsonRpcId;
  const envelope = JSONRPCRequestSchema.safeParse(message);
  if (!envelope.success) {
    const issues = envelope.error?.issues ?? [];
    const inParams = issues.length > 0 && issues.every((i) => i.path[0] === "params");
    return errorReply(id, inParams ? -32602 : -32600, `${inParams ? "Invalid params" : "Invalid Request"}: ${describe(issues)}`);
  }
  // A Map: a method named "constructor" or "__proto__" must not find Object's own members.
  const schema = typeof message.method === "string" ? BY_METHOD.get(message.method) : undefined;
  const parsed = schema?.safeParse(message);
  if (parsed && !parsed.success) return errorReply(id, -32602, `Invalid params: ${describe(parsed.error?.issues ?? [])}`);
  return undefined;
}

/** Where and what, never the value itself (it is the caller's, and may be a secret). */
function describe(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  const lines = issues.slice(0, 3).map((i) => `${i.path.map(String).join(".") || "(message)"}: ${i.message}`);
  if (issues.length > 3) lines.push(`and ${issues.length - 3} more`);
  return lines.join("; ") || "the request does not match the MCP schema";
}
