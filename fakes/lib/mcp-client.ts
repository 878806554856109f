/** A real MCP client over stdio against a real server process (source or compiled binary). */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema, type ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { join } from "node:path";
import { BUN_DIR, REPO_ROOT } from "./sandbox.ts";
import { ArkErrors, type } from "arktype";
import type { ToolDef } from "../../src/mcp/define.ts";
import { isErrorCode } from "../../src/errors.ts";
import { allTools } from "../../src/mcp/tools/index.ts";

/** What a test drives: a connected client, and how to end the session. */
export interface ClientSession {
  client: Client;
  close(): Promise<void>;
}

/** A session with a server process of its own: its pid and what it wrote to stderr. */
export interface McpSession extends ClientSession {
  transport: StdioClientTransport;
  pid: number | null;
  stderr: () => string;
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
  checkedReplies(client);
  return {
    client,
    transport,
    pid: transport.pid,
    stderr: () => err,
    close: () => client.close(),
  };
}

/** Wraps callTool so every reply is checked as below, whatever the test then asserts. */
export function checkedReplies(client: Client): void {
  enforceClosedCodes(client);
  enforceOutputSchemas(client);
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
    if (error && (typeof error.code !== "string" || !isErrorCode(error.code)))
      throw new Error(`reply carries an error code outside the closed set: ${JSON.stringify(error.code)}`);
    return reply;
  };
}

/**
 * Every reply any end-to-end test sees is checked against the output type the tool declares (its
 * arktype type in src/mcp/tools/<group>/schema.ts, found by name through the defs): a reply that
 * does not fit its own schema fails the test that produced it, whatever that test asserts. As in
 * MCP (a client validates structuredContent unless isError), an error reply must only be a typed
 * failure — `ok: false` and an error of the shared shape — since a failure before the handler
 * (arguments that do not validate) has none of the tool's own fields. A name no def has (a test of
 * unknown_tool) has no schema to fit.
 */
function enforceOutputSchemas(client: Client): void {
  const call = client.callTool.bind(client);
  client.callTool = async (...args: Parameters<Client["callTool"]>) => {
    const reply = await call(...args);
    const name = args[0].name;
    const def = allTools().find((tool) => tool.name === name);
    if (!def || reply.structuredContent === undefined) return reply;
    const problem = reply.isError === true ? await failureProblem(reply.structuredContent) : await outputProblem(def, reply.structuredContent);
    if (problem) throw new Error(`${name} replied outside its declared output schema: ${problem}\n${JSON.stringify(reply.structuredContent).slice(0, 2000)}`);
    return reply;
  };
}

async function outputProblem(def: ToolDef, content: unknown): Promise<string | undefined> {
  const checked = (await def.schemas()).output(content);
  return checked instanceof ArkErrors ? checked.summary : undefined;
}

async function failureProblem(content: unknown): Promise<string | undefined> {
  const { errorInfo } = await import("../../src/mcp/tools/shared.ts");
  const checked = type({ ok: "false", error: errorInfo })(content);
  return checked instanceof ArkErrors ? checked.summary : undefined;
}

export type ToolReply = { isError?: boolean; structuredContent?: Record<string, unknown>; content: { type: string; text?: string }[] };

export function textOf(reply: ToolReply): string {
  return reply.content.map((c) => c.text ?? "").join("\n");
}
