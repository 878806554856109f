/**
 * The loopback model server's acting turn (fake-llm.ts): a prompt saying USE_ACTING_TOOL is
 * answered, in the request's own API, with one call to the first acting tool the CLI offered — a
 * shell (`touch $FAKE_LLM_ACT_FILE`) before a file write (that file) — as a model that ignores an
 * answer-only instruction would. Once the call is in the history (its file path shows in the
 * request) the answer is the plain one, and a request that offers no acting tool gets it at once.
 * An answer-only consult must fail closed on the call before the file exists.
 */
type Api = "anthropic" | "openai" | "gemini";

const ACT_FILE = process.env.FAKE_LLM_ACT_FILE ?? "/tmp/FAKE_LLM_ACTED";
const SHELLS = ["bash", "Bash", "shell", "run_shell_command", "exec_command", "shell_command", "local_shell", "powershell"];
const WRITES = ["write_file", "write", "Write", "create", "edit", "Edit", "replace", "apply_patch", "str_replace_editor"];

/** The tool to call and its arguments, in the shape each CLI's own tool takes. */
function actingTool(tools: string[]): { name: string; args: Record<string, unknown> } | undefined {
  const command = `touch ${ACT_FILE}`;
  const shell = SHELLS.find((n) => tools.includes(n));
  if (shell === "shell") return { name: shell, args: { command: ["bash", "-lc", command] } };
  if (shell === "exec_command") return { name: shell, args: { cmd: command } };
  if (shell) return { name: shell, args: { command, description: "Mark the file" } };
  const write = WRITES.find((n) => tools.includes(n));
  if (!write) return undefined;
  return { name: write, args: { file_path: ACT_FILE, filePath: ACT_FILE, path: ACT_FILE, content: "acted\n", file_text: "acted\n" } };
}

/** The acting reply, with the tool it calls (logged, so the smoke knows the call was really made). */
export function actingTurn(
  api: Api | undefined,
  path: string,
  body: unknown,
  tools: string[],
  model: string,
): { tool: string; reply: () => Response } | undefined {
  const text = JSON.stringify(body);
  if (!api || !text.includes("USE_ACTING_TOOL") || text.includes(ACT_FILE)) return undefined;
  const tool = actingTool(tools);
  if (!tool) return undefined;
  return { tool: tool.name, reply: () => actingReply(api, path, body, tool, model) };
}

function actingReply(api: Api, path: string, body: unknown, tool: { name: string; args: Record<string, unknown> }, model: string): Response {
  const args = JSON.stringify(tool.args);
  if (api === "anthropic") return anthropic(tool.name, tool.args, model);
  if (api === "gemini") {
    const payload = {
      candidates: [{ content: { parts: [{ functionCall: { name: tool.name, args: tool.args } }], role: "model" }, finishReason: "STOP", index: 0 }],
      usageMetadata: { promptTokenCount: 42, candidatesTokenCount: 7, totalTokenCount: 49 },
      modelVersion: model,
    };
    return path.includes(":generateContent")
      ? Response.json(payload)
      : new Response(`data: ${JSON.stringify(payload)}\n\n`, { headers: { "content-type": "text/event-stream" } });
  }
  if (path.endsWith("/responses")) return responses(tool.name, args, model);
  return chat(tool.name, args, model, (body as { stream?: boolean }).stream === true);
}

const sse = (events: [string, unknown][]) =>
  new Response(events.map(([e, d]) => `event: ${e}\ndata: ${JSON.stringify(d)}\n\n`).join(""), { headers: { "content-type": "text/event-stream" } });

function anthropic(name: string, input: Record<string, unknown>, model: string): Response {
  const message = {
    id: "msg_act",
    type: "message",
    role: "assistant",
    model,
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 42, output_tokens: 1 },
  };
  return sse([
    ["message_start", { type: "message_start", message }],
    ["content_block_start", { type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "toolu_act1", name, input: {} } }],
    ["content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: JSON.stringify(input) } }],
    ["content_block_stop", { type: "content_block_stop", index: 0 }],
    ["message_delta", { type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 7 } }],
    ["message_stop", { type: "message_stop" }],
  ]);
}

function responses(name: string, args: string, model: string): Response {
  const item = { type: "function_call", id: "fc_act1", call_id: "call_act1", name, arguments: args, status: "completed" };
  const usage = {
    input_tokens: 42,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 7,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 49,
  };
  const resp = { id: "resp_act", object: "response", status: "completed", model, output: [item], usage };
  return sse([
    ["response.created", { type: "response.created", response: { ...resp, status: "in_progress", output: [] } }],
    ["response.output_item.added", { type: "response.output_item.added", output_index: 0, item: { ...item, status: "in_progress", arguments: "" } }],
    ["response.function_call_arguments.done", { type: "response.function_call_arguments.done", item_id: "fc_act1", output_index: 0, arguments: args }],
    ["response.output_item.done", { type: "response.output_item.done", output_index: 0, item }],
    ["response.completed", { type: "response.completed", response: resp }],
  ]);
}

function chat(name: string, args: string, model: string, stream: boolean): Response {
  const call = { id: "call_act1", type: "function", function: { name, arguments: args } };
  const usage = { prompt_tokens: 42, completion_tokens: 7, total_tokens: 49 };
  if (!stream)
    return Response.json({
      id: "c1",
      object: "chat.completion",
      created: 1,
      model,
      choices: [{ index: 0, message: { role: "assistant", content: null, tool_calls: [call] }, finish_reason: "tool_calls" }],
      usage,
    });
  const chunk = (delta: unknown, finish: string | null) =>
    `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", created: 1, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const tail = `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", created: 1, model, choices: [], usage })}\n\ndata: [DONE]\n\n`;
  return new Response(chunk({ role: "assistant", content: null, tool_calls: [{ index: 0, ...call }] }, null) + chunk({}, "tool_calls") + tail, {
    headers: { "content-type": "text/event-stream" },
  });
}
