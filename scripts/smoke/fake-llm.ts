/**
 * A minimal loopback model server for smoke-testing orchestrate with the REAL vendor CLIs:
 * Anthropic messages (claude), OpenAI Responses (codex, custom provider) and chat completions
 * (opencode's openai-compatible provider, copilot BYOK, community grok, pi's models.json
 * provider with `api: openai-completions`), streaming or not. Not used by the test suite. Prints `FAKE_LLM_LISTENING <url>`; logs requests to $FAKE_LLM_LOG.
 */
const REPLY = process.env.FAKE_REPLY ?? "PONG-FROM-REAL";
const LOG = process.env.FAKE_LLM_LOG;
const log: unknown[] = [];
const sse = (events: [string, unknown][]) =>
  new Response(events.map(([e, d]) => `event: ${e}\ndata: ${JSON.stringify(d)}\n\n`).join(""), { headers: { "content-type": "text/event-stream" } });
const server = Bun.serve({
  hostname: "127.0.0.1",
  port: Number(process.env.PORT ?? 0),
  async fetch(req) {
    const url = new URL(req.url);
    const body = req.method === "POST" ? await req.json().catch(() => ({})) : {};
    // Which tools a CLI offered, and whether anything the smoke planted in the CLIs' own config
    // (extensions, APPEND_SYSTEM.md, … all carry BOOM_MARKER) reached the request.
    const tools = ((body as { tools?: { function?: { name?: string }; name?: string }[] }).tools ?? []).map((t) => t.function?.name ?? t.name ?? "?");
    log.push({ method: req.method, path: url.pathname, model: (body as { model?: string }).model, tools, leaked: JSON.stringify(body).includes("BOOM_MARKER") });
    if (LOG) await Bun.write(LOG, JSON.stringify(log, null, 1));
    if (url.pathname.endsWith("/messages")) {
      const model = (body as { model?: string }).model ?? "claude-x";
      return sse([
        ["message_start", { type: "message_start", message: { id: "msg_1", type: "message", role: "assistant", model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 42, output_tokens: 1 } } }],
        ["content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }],
        ["content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: REPLY } }],
        ["content_block_stop", { type: "content_block_stop", index: 0 }],
        ["message_delta", { type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: 7 } }],
        ["message_stop", { type: "message_stop" }],
      ]);
    }
    if (url.pathname.endsWith("/responses")) {
      const item = { type: "message", id: "msg_1", role: "assistant", status: "completed", content: [{ type: "output_text", text: REPLY, annotations: [] }] };
      const resp = { id: "resp_1", object: "response", status: "completed", model: (body as { model?: string }).model, output: [item], usage: { input_tokens: 42, input_tokens_details: { cached_tokens: 0 }, output_tokens: 7, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 49 } };
      return sse([
        ["response.created", { type: "response.created", response: { ...resp, status: "in_progress", output: [] } }],
        ["response.output_item.added", { type: "response.output_item.added", output_index: 0, item: { ...item, status: "in_progress", content: [] } }],
        ["response.output_text.delta", { type: "response.output_text.delta", item_id: "msg_1", output_index: 0, content_index: 0, delta: REPLY }],
        ["response.output_item.done", { type: "response.output_item.done", output_index: 0, item }],
        ["response.completed", { type: "response.completed", response: resp }],
      ]);
    }
    if (url.pathname.endsWith("/chat/completions")) {
      const model = (body as { model?: string }).model ?? "m";
      if (!(body as { stream?: boolean }).stream) return Response.json({ id: "c1", object: "chat.completion", created: 1, model, choices: [{ index: 0, message: { role: "assistant", content: REPLY }, finish_reason: "stop" }], usage: { prompt_tokens: 42, completion_tokens: 7, total_tokens: 49 } });
      const chunk = (delta: unknown, finish: string | null) => `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", created: 1, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      const usage = `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", created: 1, model, choices: [], usage: { prompt_tokens: 42, completion_tokens: 7, total_tokens: 49 } })}\n\n`;
      return new Response(chunk({ role: "assistant", content: "" }, null) + chunk({ content: REPLY }, null) + chunk({}, "stop") + usage + "data: [DONE]\n\n", { headers: { "content-type": "text/event-stream" } });
    }
    if (url.pathname.includes(":streamGenerateContent") || url.pathname.includes(":generateContent")) {
      // Gemini: structured side calls (router, next speaker) get a schema-shaped object, the turn gets REPLY.
      const config = (body as { generationConfig?: { responseMimeType?: string; responseJsonSchema?: unknown; responseSchema?: unknown } }).generationConfig;
      const text = config?.responseMimeType === "application/json" ? JSON.stringify(shaped(config.responseJsonSchema ?? config.responseSchema)) : REPLY;
      const payload = { candidates: [{ content: { parts: [{ text }], role: "model" }, finishReason: "STOP", index: 0 }], usageMetadata: { promptTokenCount: 42, candidatesTokenCount: 7, totalTokenCount: 49 }, modelVersion: url.pathname.split("/").pop()?.split(":")[0] };
      if (url.pathname.includes(":generateContent")) return Response.json(payload);
      return new Response(`data: ${JSON.stringify(payload)}\n\n`, { headers: { "content-type": "text/event-stream" } });
    }
    if (url.pathname.includes(":countTokens")) return Response.json({ totalTokens: 42 });
    if (url.pathname.endsWith("/models")) return Response.json({ object: "list", data: [{ id: "fake-model", object: "model" }] });
    return new Response("ok");
  },
});
/** A value matching a JSON Schema well enough for the CLIs' own side calls (enums prefer "user"). */
function shaped(schema: unknown): unknown {
  const s = (schema ?? {}) as { type?: string; enum?: unknown[]; properties?: Record<string, unknown>; items?: unknown; minimum?: number };
  if (Array.isArray(s.enum)) return s.enum.includes("user") ? "user" : s.enum[0];
  switch (String(s.type ?? "").toLowerCase()) {
    case "object":
      return Object.fromEntries(Object.entries(s.properties ?? {}).map(([k, v]) => [k, shaped(v)]));
    case "array":
      return [];
    case "number":
    case "integer":
      return s.minimum ?? 0;
    case "boolean":
      return false;
    default:
      return "ok";
  }
}

process.stdout.write(`FAKE_LLM_LISTENING http://127.0.0.1:${server.port}\n`);
