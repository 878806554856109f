/**
 * A minimal loopback model server for smoke-testing orchestrate with the REAL vendor CLIs:
 * Anthropic messages (claude), OpenAI Responses (codex, custom provider) and chat completions
 * (opencode's openai-compatible provider, copilot BYOK, community grok, pi's models.json
 * provider with `api: openai-completions`), streaming or not. Not used by the test suite. Prints `FAKE_LLM_LISTENING <url>`; logs requests to $FAKE_LLM_LOG.
 *
 * Capacity failures are steered by the model name, as research/retries-and-trust.md did: a model
 * whose name contains `ratelimit` gets a 429 (with `retry-after: $FAKE_LLM_RETRY_AFTER`, default
 * 1; empty for none), one containing `overload` a 529 (Anthropic) or 503 (OpenAI, Gemini), each
 * in its provider's own error body. With `transient` in the name only the first request for that
 * model fails (one-shot), then it answers; `GET /__reset` forgets which models were asked for.
 * A prompt saying USE_ACTING_TOOL is answered with a call to an acting tool (fake-llm-act.ts).
 */
import { actingTurn } from "./fake-llm-act.ts";

const REPLY = process.env.FAKE_REPLY ?? "PONG-FROM-REAL";
const LOG = process.env.FAKE_LLM_LOG;
const log: unknown[] = [];
const RETRY_AFTER = process.env.FAKE_LLM_RETRY_AFTER ?? "1";
/** Requests seen per model, for the one-shot (transient) failures. */
const seen = new Map<string, number>();

type Api = "anthropic" | "openai" | "gemini";

/** The failure this request gets, from its model's name; undefined: answer it. */
function failureFor(model: string): 429 | 503 | undefined {
  const status = /ratelimit/.test(model) ? 429 : /overload/.test(model) ? 503 : undefined;
  if (status === undefined) return undefined;
  const n = (seen.get(model) ?? 0) + 1;
  seen.set(model, n);
  return /transient/.test(model) && n > 1 ? undefined : status;
}

/** The provider's own error body and status (Anthropic says 529 where the others say 503). */
function failure(api: Api, status: 429 | 503): Response {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (status === 429 && RETRY_AFTER !== "") headers["retry-after"] = RETRY_AFTER;
  if (api === "anthropic") {
    const body =
      status === 429
        ? { type: "error", error: { type: "rate_limit_error", message: "Number of request tokens has exceeded your per-minute rate limit" } }
        : { type: "error", error: { type: "overloaded_error", message: "Overloaded" } };
    return new Response(JSON.stringify(body), { status: status === 429 ? 429 : 529, headers });
  }
  if (api === "gemini") {
    const body =
      status === 429
        ? { error: { code: 429, message: "Resource has been exhausted (e.g. check quota).", status: "RESOURCE_EXHAUSTED" } }
        : { error: { code: 503, message: "The model is overloaded. Please try again later.", status: "UNAVAILABLE" } };
    return new Response(JSON.stringify(body), { status, headers });
  }
  const body =
    status === 429
      ? { error: { message: "Rate limit reached for requests. Please try again in 20s.", type: "requests", param: null, code: "rate_limit_exceeded" } }
      : { error: { message: "The server is overloaded. Please try again later.", type: "server_error", param: null, code: "server_overloaded" } };
  return new Response(JSON.stringify(body), { status, headers });
}

function apiOf(path: string): Api | undefined {
  if (path.endsWith("/messages")) return "anthropic";
  if (path.endsWith("/responses") || path.endsWith("/chat/completions")) return "openai";
  if (path.includes(":streamGenerateContent") || path.includes(":generateContent")) return "gemini";
  return undefined;
}
const sse = (events: [string, unknown][]) =>
  new Response(events.map(([e, d]) => `event: ${e}\ndata: ${JSON.stringify(d)}\n\n`).join(""), { headers: { "content-type": "text/event-stream" } });
const server = Bun.serve({
  hostname: "127.0.0.1",
  port: Number(process.env.PORT ?? 0),
  async fetch(req) {
    const url = new URL(req.url);
    // The smoke resets the one-shot counts before each row: every CLI asks for the same model
    // names, so without it only the first CLI's transient row would ever see its failure.
    if (url.pathname === "/__reset") {
      seen.clear();
      return new Response("reset");
    }
    const body = req.method === "POST" ? await req.json().catch(() => ({})) : {};
    // A consult asked in the prompt alone (an ACP agent has no schema flag) names the envelope's
    // marker (src/services/answer/envelope.ts): the answer is then that object, as a model would write it.
    const reply = JSON.stringify(body).includes("ORCHESTRATE_JSON_ENVELOPE")
      ? JSON.stringify({ answer: REPLY, assumptions: [], uncertainties: [], follow_up_questions: [], sources: [] })
      : REPLY;
    // Which tools a CLI offered, and whether anything the smoke planted in the CLIs' own config
    // (extensions, APPEND_SYSTEM.md, … all carry BOOM_MARKER) reached the request.
    // gemini lists its tools as functionDeclarations inside one entry.
    // A hosted tool (codex's web_search) has a type and no name.
    const tools = (
      (body as { tools?: { function?: { name?: string }; name?: string; type?: string; functionDeclarations?: { name?: string }[] }[] }).tools ?? []
    ).flatMap((t) => (t.functionDeclarations ? t.functionDeclarations.map((f) => f.name ?? "?") : [t.function?.name ?? t.name ?? t.type ?? "?"]));
    const api = apiOf(url.pathname);
    const requested = api === "gemini" ? (url.pathname.split("/").pop()?.split(":")[0] ?? "") : ((body as { model?: string }).model ?? "");
    const failed = api ? failureFor(requested) : undefined;
    const acting = failed ? undefined : actingTurn(api, url.pathname, body, tools, requested);
    log.push({
      at: Date.now(),
      method: req.method,
      path: url.pathname,
      model: requested || undefined,
      tools,
      leaked: JSON.stringify(body).includes("BOOM_MARKER"),
      // A resumed conversation carries its earlier turn: the smoke's first turn says REMEMBER_THIS.
      remembers: JSON.stringify(body).includes("REMEMBER_THIS"),
      ...(failed ? { failed } : {}),
      ...(acting ? { acting: acting.tool } : {}),
    });
    if (LOG) await Bun.write(LOG, JSON.stringify(log, null, 1));
    if (api && failed) return failure(api, failed);
    if (acting) return acting.reply();
    if (url.pathname.endsWith("/messages")) {
      const model = (body as { model?: string }).model ?? "claude-x";
      const web = anthropicWeb(body, tools, model);
      if (web) return web;
      const fetchUse = anthropicWebFetch(body, tools, model, url.origin);
      if (fetchUse) return fetchUse;
      return sse([
        [
          "message_start",
          {
            type: "message_start",
            message: {
              id: "msg_1",
              type: "message",
              role: "assistant",
              model,
              content: [],
              stop_reason: null,
              stop_sequence: null,
              usage: { input_tokens: 42, output_tokens: 1 },
            },
          },
        ],
        ["content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }],
        ["content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: reply } }],
        ["content_block_stop", { type: "content_block_stop", index: 0 }],
        ["message_delta", { type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: 7 } }],
        ["message_stop", { type: "message_stop" }],
      ]);
    }
    if (url.pathname.endsWith("/responses")) {
      // codex --output-schema sends the schema as text.format; the answer must then match it.
      const format = (body as { text?: { format?: { type?: string; schema?: unknown } } }).text?.format;
      const text = format?.type === "json_schema" ? JSON.stringify({ ...(shaped(format.schema) as object), answer: REPLY }) : reply;
      const item = { type: "message", id: "msg_1", role: "assistant", status: "completed", content: [{ type: "output_text", text, annotations: [] }] };
      // A prompt saying USE_WEB_SEARCH, with the hosted web_search tool offered, gets one search
      // before the answer in the same response, as the Responses API runs a hosted tool itself
      // (FAKE_LLM_WEB_SEARCHES of them, default 1).
      const searches = tools.includes("web_search") && JSON.stringify(body).includes("USE_WEB_SEARCH") ? Number(process.env.FAKE_LLM_WEB_SEARCHES ?? 1) : 0;
      const calls = Array.from({ length: searches }, (_, i) => ({
        type: "web_search_call",
        id: `ws_${i + 1}`,
        status: "completed",
        action: { type: "search", query: `pong protocol ${i + 1}` },
      }));
      const output = [...calls, item];
      const resp = {
        id: "resp_1",
        object: "response",
        status: "completed",
        model: (body as { model?: string }).model,
        output,
        usage: {
          input_tokens: 42,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: 7,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: 49,
        },
      };
      const at = calls.length;
      return sse([
        ["response.created", { type: "response.created", response: { ...resp, status: "in_progress", output: [] } }],
        ...calls.flatMap((call, i): [string, unknown][] => [
          ["response.output_item.added", { type: "response.output_item.added", output_index: i, item: { ...call, status: "in_progress" } }],
          ["response.output_item.done", { type: "response.output_item.done", output_index: i, item: call }],
        ]),
        ["response.output_item.added", { type: "response.output_item.added", output_index: at, item: { ...item, status: "in_progress", content: [] } }],
        ["response.output_text.delta", { type: "response.output_text.delta", item_id: "msg_1", output_index: at, content_index: 0, delta: text }],
        ["response.output_item.done", { type: "response.output_item.done", output_index: at, item }],
        ["response.completed", { type: "response.completed", response: resp }],
      ]);
    }
    if (url.pathname === "/pong-page") return new Response(PONG_PAGE, { headers: { "content-type": "text/html; charset=utf-8" } });
    if (url.pathname.endsWith("/chat/completions")) {
      const model = (body as { model?: string }).model ?? "m";
      const fetchCall = chatWebFetch(body, tools, model, url.origin);
      if (fetchCall) return fetchCall;
      if (!(body as { stream?: boolean }).stream)
        return Response.json({
          id: "c1",
          object: "chat.completion",
          created: 1,
          model,
          choices: [{ index: 0, message: { role: "assistant", content: reply }, finish_reason: "stop" }],
          usage: { prompt_tokens: 42, completion_tokens: 7, total_tokens: 49 },
        });
      const chunk = (delta: unknown, finish: string | null) =>
        `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", created: 1, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      const usage = `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", created: 1, model, choices: [], usage: { prompt_tokens: 42, completion_tokens: 7, total_tokens: 49 } })}\n\n`;
      return new Response(chunk({ role: "assistant", content: "" }, null) + chunk({ content: reply }, null) + chunk({}, "stop") + usage + "data: [DONE]\n\n", {
        headers: { "content-type": "text/event-stream" },
      });
    }
    if (url.pathname.includes(":streamGenerateContent") || url.pathname.includes(":generateContent")) {
      // Gemini: structured side calls (router, next speaker) get a schema-shaped object, the turn gets REPLY.
      const config = (body as { generationConfig?: { responseMimeType?: string; responseJsonSchema?: unknown; responseSchema?: unknown } }).generationConfig;
      const text = config?.responseMimeType === "application/json" ? JSON.stringify(shaped(config.responseJsonSchema ?? config.responseSchema)) : reply;
      const payload = {
        candidates: [{ content: { parts: [{ text }], role: "model" }, finishReason: "STOP", index: 0 }],
        usageMetadata: { promptTokenCount: 42, candidatesTokenCount: 7, totalTokenCount: 49 },
        modelVersion: url.pathname.split("/").pop()?.split(":")[0],
      };
      if (url.pathname.includes(":generateContent")) return Response.json(payload);
      return new Response(`data: ${JSON.stringify(payload)}\n\n`, { headers: { "content-type": "text/event-stream" } });
    }
    if (url.pathname.includes(":countTokens")) return Response.json({ totalTokens: 42 });
    if (url.pathname.endsWith("/models")) return Response.json({ object: "list", data: [{ id: "fake-model", object: "model" }] });
    return new Response("ok");
  },
});
/** The page opencode's webfetch reads from this server (loopback, so the smoke needs no network). */
const PONG_PAGE = "<html><head><title>Pong</title></head><body><p>Pong is a table tennis game from 1972.</p></body></html>";

/**
 * opencode's webfetch, scripted for a prompt saying USE_WEB_FETCH with the tool offered: a
 * function call of webfetch on this server's /pong-page (FAKE_LLM_WEB_FETCHES of them, one per
 * turn, default 1), then the answer once that many tool results are in the conversation.
 */
function chatWebFetch(body: unknown, tools: string[], model: string, origin: string): Response | undefined {
  if (!tools.includes("webfetch") || !JSON.stringify(body).includes("USE_WEB_FETCH")) return undefined;
  const results = ((body as { messages?: { role?: string }[] }).messages ?? []).filter((m) => m.role === "tool").length;
  if (results >= WEB_FETCHES) return undefined;
  const call = {
    index: 0,
    id: `call_${results + 1}`,
    type: "function",
    function: { name: "webfetch", arguments: JSON.stringify({ url: `${origin}/pong-page`, format: "text" }) },
  };
  const chunk = (delta: unknown, finish: string | null) =>
    `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", created: 1, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const usage = `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", created: 1, model, choices: [], usage: { prompt_tokens: 42, completion_tokens: 7, total_tokens: 49 } })}\n\n`;
  return new Response(`${chunk({ role: "assistant", content: null, tool_calls: [call] }, null)}${chunk({}, "tool_calls")}${usage}data: [DONE]\n\n`, {
    headers: { "content-type": "text/event-stream" },
  });
}

/** How many pages a USE_WEB_FETCH prompt gets fetched before the answer. */
const WEB_FETCHES = Number(process.env.FAKE_LLM_WEB_FETCHES ?? 1);

/**
 * The same webfetch in Anthropic's Messages format (opencode's anthropic provider, which honours
 * ANTHROPIC_BASE_URL — the smoke's answer-mode opencode has no config of its own, so a provider
 * declared in opencode.json is not there): a tool_use block, then the answer once the results are in.
 */
function anthropicWebFetch(body: unknown, tools: string[], model: string, origin: string): Response | undefined {
  if (!tools.includes("webfetch") || !JSON.stringify(body).includes("USE_WEB_FETCH")) return undefined;
  const messages = (body as { messages?: { content?: unknown }[] }).messages ?? [];
  const results = messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).filter((c) => (c as { type?: string }).type === "tool_result").length;
  if (results >= WEB_FETCHES) return undefined;
  const input = JSON.stringify({ url: `${origin}/pong-page`, format: "text" });
  return sse([
    [
      "message_start",
      {
        type: "message_start",
        message: {
          id: "msg_f",
          type: "message",
          role: "assistant",
          model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 42, output_tokens: 1 },
        },
      },
    ],
    [
      "content_block_start",
      { type: "content_block_start", index: 0, content_block: { type: "tool_use", id: `toolu_${results + 1}`, name: "webfetch", input: {} } },
    ],
    ["content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: input } }],
    ["content_block_stop", { type: "content_block_stop", index: 0 }],
    ["message_delta", { type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 7 } }],
    ["message_stop", { type: "message_stop" }],
  ]);
}

/**
 * Claude Code's WebSearch, scripted for a prompt saying USE_WEB_SEARCH: the main loop (WebSearch
 * offered, no tool result yet) gets a WebSearch tool_use; the tool's own nested request (a server
 * tool `web_search_*`) gets a server_tool_use and its web_search_tool_result, as the Messages API
 * runs a hosted search; the loop's next request (with the tool result) gets the plain answer.
 */
function anthropicWeb(body: unknown, tools: string[], model: string): Response | undefined {
  const text = JSON.stringify(body);
  if (!text.includes("USE_WEB_SEARCH")) return undefined;
  const hosted =
    tools.includes("web_search") || ((body as { tools?: { type?: string }[] }).tools ?? []).some((t) => String(t.type ?? "").startsWith("web_search_"));
  const start = (content: unknown[]) =>
    [
      "message_start",
      {
        type: "message_start",
        message: {
          id: "msg_w",
          type: "message",
          role: "assistant",
          model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 42, output_tokens: 1 },
        },
      },
    ] as [string, unknown];
  const blocks = (content: Record<string, unknown>[]): [string, unknown][] =>
    content.flatMap((block, index): [string, unknown][] => [
      ["content_block_start", { type: "content_block_start", index, content_block: block.type === "tool_use" ? { ...block, input: {} } : block }],
      ...(block.type === "tool_use"
        ? [
            ["content_block_delta", { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) } }] as [
              string,
              unknown,
            ],
          ]
        : []),
      ["content_block_stop", { type: "content_block_stop", index }],
    ]);
  const end = (reason: string): [string, unknown][] => [
    ["message_delta", { type: "message_delta", delta: { stop_reason: reason, stop_sequence: null }, usage: { output_tokens: 7 } }],
    ["message_stop", { type: "message_stop" }],
  ];
  if (hosted) {
    const content = [
      { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "pong protocol 1" } },
      {
        type: "web_search_tool_result",
        tool_use_id: "srvtoolu_1",
        content: [{ type: "web_search_result", url: "https://example.org/pong", title: "Pong", encrypted_content: "x", page_age: null }],
      },
      { type: "text", text: "Pong is a table-tennis game." },
    ];
    return sse([start(content), ...blocks(content), ...end("end_turn")]);
  }
  if (tools.includes("WebSearch") && !text.includes("tool_result")) {
    const content = [{ type: "tool_use", id: "toolu_w1", name: "WebSearch", input: { query: "pong protocol 1" } }];
    return sse([start(content), ...blocks(content), ...end("tool_use")]);
  }
  // --json-schema offers StructuredOutput: the answer is its input, once; after its result, done.
  const schema = ((body as { tools?: { name?: string; input_schema?: unknown }[] }).tools ?? []).find((t) => t.name === "StructuredOutput")?.input_schema;
  if (schema === undefined || text.includes("toolu_so1")) return undefined;
  const content = [{ type: "tool_use", id: "toolu_so1", name: "StructuredOutput", input: { ...(shaped(schema) as object), answer: REPLY } }];
  return sse([start(content), ...blocks(content), ...end("tool_use")]);
}

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
