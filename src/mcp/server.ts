/**
 * The MCP server, built on the SDK's low-level `Server` so tools are served from their
 * pre-generated JSON Schemas; mcp/front.ts answers the handshake and loads this on first real use.
 * A call is looked up and handed to its tool (mcp/define.ts), which validates, runs and shapes it;
 * here only the transport's concerns remain: progress, cancellation and MCP Tasks.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListToolsRequestSchema,
  type CallToolRequest,
  type CallToolResult,
  type CreateTaskResult,
  type ServerNotification,
  type ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import { trackCall } from "./inflight.ts";
import { INSTRUCTIONS, SERVER_CAPABILITIES, SERVER_INFO } from "./info.ts";
import type { ToolContext, ToolDef } from "./define.ts";
import { failureReply } from "./outcome.ts";
import { activeTools, resolveTool } from "./tools/index.ts";
import { seedClient } from "./tools/names.ts";
import { CancellableTaskStore, taskTtl } from "./tasks.ts";
import { wireTool } from "./tools/wire.ts";
import { getPrompt, listPrompts } from "./prompts.ts";

type CallExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export function buildServer(env: Record<string, string | undefined>): Server {
  const tools = activeTools(env);
  const seed = seedClient(env);
  const taskStore = new CancellableTaskStore();
  const server = new Server(
    { ...SERVER_INFO },
    { capabilities: structuredClone(SERVER_CAPABILITIES) as Record<string, object>, instructions: INSTRUCTIONS, taskStore },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.map(wireTool) }));
  // Prompts only build text: expanding one sends nothing and runs nothing.
  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: listPrompts(env) }));
  server.setRequestHandler(GetPromptRequestSchema, (request) => getPrompt(request.params.name, request.params.arguments, env));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => trackCall(answerCall(request, extra)));
  async function answerCall(request: CallToolRequest, extra: CallExtra): Promise<CallToolResult | CreateTaskResult> {
    const tool = resolveTool(tools, request.params.name);
    if (!tool)
      return failureReply({ code: "unknown_tool", message: `No tool named "${request.params.name}".`, hint: "Call tools/list to see the available tools." });
    const ctx = { ...contextFor(request, extra, server), ...(seed ? { seedClient: true } : {}) };
    const taskParams = request.params.task;
    if (taskParams && tool.task && extra.taskStore)
      return { task: await startTask(tool, request.params.arguments, ctx, taskParams.ttl, extra.taskStore, taskStore) };
    return tool.call(request.params.arguments, ctx);
  }
  return server;
}

/** The handler's view of one request: its abort signal, progress when the client gave a token, elicitation when it declared it. */
function contextFor(request: CallToolRequest, extra: CallExtra, server: Server): ToolContext {
  const token = request.params._meta?.progressToken;
  const clientName = server.getClientVersion()?.name;
  let step = 0;
  return {
    signal: extra.signal,
    wantsProgress: token !== undefined,
    ...(clientName ? { clientName } : {}),
    ...(server.getClientCapabilities()?.elicitation?.form ? { elicit: (message: string) => elicit(server, message, extra) } : {}),
    progress: (message, progress, total) => {
      if (token === undefined || extra.signal.aborted) return;
      step += 1;
      void extra
        .sendNotification({
          method: "notifications/progress",
          params: { progressToken: token, progress: progress ?? step, ...(total ? { total } : {}), message },
        })
        .catch(() => undefined);
    },
  };
}

/** A person takes longer than a request: the SDK's 60 s default would decline for them. */
const ELICIT_TIMEOUT_MS = 15 * 60_000;

/** A yes/no put to the person: the message is the whole question, so the form asks for nothing more. */
async function elicit(server: Server, message: string, extra: CallExtra): Promise<"accept" | "decline" | "failed"> {
  try {
    const answer = await server.elicitInput(
      { mode: "form", message, requestedSchema: { type: "object", properties: {} } },
      { relatedRequestId: extra.requestId, timeout: ELICIT_TIMEOUT_MS },
    );
    // "cancel" (dismissed without choosing) is not an approval either.
    return answer.action === "accept" ? "accept" : "decline";
  } catch {
    return "failed";
  }
}

type RequestTaskStore = NonNullable<CallExtra["taskStore"]>;

/** Runs the call as an MCP task: to its real end, cancelled by tasks/cancel, its reply the task's result. */
async function startTask(tool: ToolDef, args: unknown, ctx: ToolContext, ttl: number | undefined, store: RequestTaskStore, cancels: CancellableTaskStore) {
  const task = await store.createTask({ ttl: taskTtl(ttl), pollInterval: 1000 });
  const taskCtx: ToolContext = { ...ctx, signal: cancels.signalFor(task.taskId), runToCompletion: true };
  void tool
    .call(args, taskCtx)
    .then((reply) => store.storeTaskResult(task.taskId, reply.isError ? "failed" : "completed", reply))
    .catch(() => undefined /* cancelled tasks cannot take a result */)
    .finally(() => cancels.release(task.taskId));
  return task;
}
