/** A real MCP client over stdio against a real server process (source or compiled binary). */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema, type ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { join } from "node:path";
import { BUN_DIR, REPO_ROOT } from "./sandbox.ts";
import { isErrorCode } from "../../src/errors.ts";

export interface McpSession {
  client: Client;
  transport: StdioClientTransport;
  pid: number | null;
  stderr: () => string;
  close(): Promise<void>;
}

/** A client that declares elicitation answers each elicitation/create with this (it sees the message). */
export type Elicitor = (message: string) => ElicitResult["action"] | Promise<ElicitResult["action"]>;

export async function connect(env: Record<string, string>, opts: { command?: string[]; clientName?: string; elicit?: Elicitor } = {}): Promise<McpSession> {
  const command = opts.command ?? [join(BUN_DIR, "bun"), join(REPO_ROOT, "src", "main.ts")];
  const transport = new StdioClientTransport({ command: command[0] as string, args: command.slice(1), env, stderr: "pipe" });
  let err = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    err += chunk.toString();
  });
  const client = new Client({ name: opts.clientName ?? "orchestrate-tests", version: "1.0.0" }, opts.elicit ? { capabilities: { elicitation: {} } } : {});
  const elicit = opts.elicit;
  if (elicit) client.setRequestHandler(ElicitRequestSchema, async (request) => ({ action: await elicit(request.params.message) }));
  await client.connect(transport);
  enforceClosedCodes(client);
  return {
    client,
    transport,
    pid: transport.pid,
    stderr: () => err,
    close: () => client.close(),
  };
}

/**
 * Every reply any end-to-end test sees is checked against the closed set of error codes: a code
 * outside src/errors.ts fails the test that produced it, whatever that test asserts.
 */
function enforceClosedCodes(client: Client): void {
  const call = client.callTool.bind(client);
  client.callTool = async (...args: Parameters<Client["callTool"]>) => {
    const reply = await call(...args);
    const error = (reply.structuredContent as { error?: { code?: unknown } } | undefined)?.error;
    if (error && (typeof error.code !== "string" || !isErrorCode(error.code))) throw new Error(`reply carries an error code outside the closed set: ${JSON.stringify(error.code)}`);
    return reply;
  };
}

export type ToolReply = { isError?: boolean; structuredContent?: Record<string, unknown>; content: { type: string; text?: string }[] };

export function textOf(reply: ToolReply): string {
  return reply.content.map((c) => c.text ?? "").join("\n");
}
