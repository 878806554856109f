/**
 * The MCP server, built on the SDK's low-level `Server` so tools are served from their
 * pre-generated JSON Schemas; mcp/front.ts answers the handshake and loads this on first real use. Every tool result carries
 * structuredContent and a readable text block; failures are `isError` results with a code.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, GetPromptRequestSchema, ListPromptsRequestSchema, ListToolsRequestSchema, type CallToolRequest, type CallToolResult, type CreateTaskResult, type ServerNotification, type ServerRequest } from "@modelcontextprotocol/sdk/types.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import { trackCall } from "./inflight.ts";

type CallExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;
import { INSTRUCTIONS, SERVER_CAPABILITIES, SERVER_INFO } from "./info.ts";
import { log } from "../log.ts";
import type { LoadedTool, ToolContext, ToolDef, ToolOutcome } from "./define.ts";
import { activeTools } from "./tools/index.ts";
import { CancellableTaskStore } from "./tasks.ts";
import { TASK_TOOLS } from "./task-tools.ts";
import { wireTool } from "./tools/wire.ts";
import { getPrompt, listPrompts } from "./prompts.ts";

export function buildServer(env: Record<string, string | undefined>): Server {
  const tools = activeTools(env);
  const taskStore = new CancellableTaskStore();
  const server = new Server(
    { ...SERVER_INFO },
    { capabilities: structuredClone(SERVER_CAPABILITIES) as Record<string, object>, instructions: INSTRUCTIONS, taskStore },
  );
  const loaded = new Map<string, Promise<LoadedTool>>();
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.map(wireTool) }));
  // Prompts only build text: expanding one sends nothing and runs nothing.
  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: listPrompts() }));
  server.setRequestHandler(GetPromptRequestSchema, (request) => getPrompt(request.params.name, request.params.arguments));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => trackCall(answerCall(request, extra)));
  async function answerCall(request: CallToolRequest, extra: CallExtra): Promise<CallToolResult | CreateTaskResult> {
    const tool = tools.find((t) => t.name === request.params.name);
    if (!tool) return errorResult({ code: "unknown_tool", message: `No tool named "${request.params.name}".`, hint: "Call tools/list to see the available tools." });
    const token = request.params._meta?.progressToken;
    let step = 0;
    const ctx: ToolContext = {
      signal: extra.signal,
      wantsProgress: token !== undefined,
      clientName: server.getClientVersion()?.name,
      progress: (message, progress, total) => {
        if (token === undefined || extra.signal.aborted) return;
        step += 1;
        void extra.sendNotification({ method: "notifications/progress", params: { progressToken: token, progress: progress ?? step, ...(total ? { total } : {}), message } }).catch(() => undefined);
      },
    };
    const taskParams = request.params.task;
    if (taskParams && TASK_TOOLS.has(tool.name) && extra.taskStore) {
      const task = await extra.taskStore.createTask({ ttl: taskParams.ttl ?? 3_600_000, pollInterval: 1000 });
      const taskCtx: ToolContext = { ...ctx, signal: taskStore.signalFor(task.taskId), runToCompletion: true };
      const store = extra.taskStore;
      void callTool(tool, loaded, request.params.arguments, taskCtx)
        .then((result) => store.storeTaskResult(task.taskId, result.isError ? "failed" : "completed", result))
        .catch(() => undefined /* cancelled tasks cannot take a result */)
        .finally(() => taskStore.release(task.taskId));
      return { task };
    }
    return callTool(tool, loaded, request.params.arguments, ctx);
  }
  return server;
}

async function callTool(tool: ToolDef, cache: Map<string, Promise<LoadedTool>>, args: unknown, ctx: ToolContext): Promise<CallToolResult> {
  try {
    let pending = cache.get(tool.name);
    if (!pending) {
      pending = tool.load();
      cache.set(tool.name, pending);
    }
    const impl = await pending;
    const input = impl.validate(args);
    if (!input.ok) return errorResult({ code: "invalid_arguments", message: input.message, hint: "Fix the arguments named above and call again." });
    return toResult(await impl.handler(input.value, ctx));
  } catch (error) {
    // A handler never throws on purpose; if one does, the client still gets a typed answer.
    log.error(`tool ${tool.name} failed unexpectedly`, error);
    return errorResult({ code: "internal_error", message: `orchestrate hit an unexpected error in ${tool.name}.`, hint: "See the server's stderr log; the call had no effect you should rely on." });
  }
}

function toResult(outcome: ToolOutcome): CallToolResult {
  if (outcome.ok) return { content: [{ type: "text", text: outcome.text }], structuredContent: { ok: true, ...outcome.data } };
  return errorResult(outcome.error, outcome.data, outcome.text);
}

export function errorResult(error: { code: string; message: string; hint?: string }, data: Record<string, unknown> = {}, detail?: string): CallToolResult {
  const text = `Error [${error.code}]: ${error.message}${error.hint ? `\nNext: ${error.hint}` : ""}${detail ? `\n\n${detail}` : ""}`;
  return { isError: true, content: [{ type: "text", text }], structuredContent: { ...data, ok: false, error } };
}
