/**
 * A loopback model provider for the ask tests: Bun.serve on 127.0.0.1 speaking the two wire
 * formats the http backend speaks — OpenAI chat-completions (POST …/chat/completions) and Anthropic
 * messages (POST …/v1/messages, anthropic-version required) — streamed as the real APIs stream
 * them (chunk records, usage last, `data: [DONE]`; Anthropic's event/data pairs), or whole when
 * `stream` is false. Each model is steered by a script of scenarios (the last one repeats):
 * answers, 429 with retry-after, 5xx and 529, truncation, content filtering, tool-call stops,
 * native finish reasons behind a plain stop, malformed records, streams cut short or gone silent,
 * and a deployment that never answers.
 *
 * It checks keys like a provider does (401 with the provider's own error body) and records what it
 * received — the key only as ok / missing / wrong, never its value. A scenario's `rateLimit` sends
 * the format's own rate-limit headers with the reply: OpenAI's `x-ratelimit-{limit,remaining,
 * reset}-{requests,tokens}` (the reset a duration, `6m0s`) or Anthropic's
 * `anthropic-ratelimit-{requests,tokens}-{limit,remaining,reset}` (the reset an RFC 3339 time).
 */

/** One budget of a rate limit as the provider reports it: its size, what is left, and when it refills. */
export interface RateBudget {
  limit: number;
  remaining: number;
  resetSec: number;
}

export interface RateLimit {
  requests?: RateBudget;
  tokens?: RateBudget;
}

export type Scenario =
  | {
      kind: "ok";
      text?: string;
      chunks?: number;
      chunkDelayMs?: number;
      delayMs?: number;
      usage?: { input: number; output: number };
      cost?: number;
      costHeader?: string;
      rateLimit?: RateLimit;
    }
  | { kind: "json"; value: unknown; delayMs?: number }
  | { kind: "status"; status: number; retryAfter?: string; retryAfterMs?: string; delayMs?: number; echoKey?: boolean; message?: string; rateLimit?: RateLimit }
  | { kind: "truncate"; text?: string }
  | { kind: "filter" }
  | { kind: "tool_call" }
  | { kind: "native"; native: string; text?: string }
  | { kind: "hang" }
  | { kind: "stall"; text?: string }
  | { kind: "cut"; text?: string }
  | { kind: "malformed" }
  | { kind: "overloaded_midstream" }
  | { kind: "empty" };

export type WireFormat = "openai" | "anthropic";

export interface Received {
  at: number;
  format: WireFormat;
  path: string;
  model: string;
  /** The credential as the provider judged it; never its value. */
  auth: "ok" | "missing" | "wrong";
  body: Record<string, unknown>;
  /** Azure OpenAI's api-version query parameter, when the request came that way. */
  apiVersion?: string;
  /** The chat turns, as sent (system apart for Anthropic). */
  messages: { role: string; content: string }[];
  system?: string;
}

export interface FakeProvider {
  /** http://127.0.0.1:<port> — the Anthropic base URL, and the Ollama-style root. */
  url: string;
  /** url + /v1 — the OpenAI-compatible base URL. */
  openaiBase: string;
  script(model: string, ...scenarios: Scenario[]): void;
  received(model?: string): Received[];
  /** Hung requests still open (a test can assert the client gave up). */
  openHangs(): number;
  stop(): Promise<void>;
}

export interface FakeProviderOptions {
  /** The key each format expects; absent = no key checked (a local server). */
  keys?: Partial<Record<WireFormat, string>>;
}

const encoder = new TextEncoder();

export function startFakeProvider(opts: FakeProviderOptions = {}): FakeProvider {
  const scripts = new Map<string, Scenario[]>();
  const received: Received[] = [];
  let hangs = 0;
  const next = (model: string): Scenario => {
    const queue = scripts.get(model);
    if (!queue || queue.length === 0) return { kind: "ok", text: `Hello from ${model}.` };
    return queue.length > 1 ? (queue.shift() as Scenario) : (queue[0] as Scenario);
  };
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    async fetch(req) {
      const url = new URL(req.url);
      const path = url.pathname;
      const format: WireFormat | undefined = path.endsWith("/chat/completions") ? "openai" : path.endsWith("/v1/messages") ? "anthropic" : undefined;
      if (!format || req.method !== "POST")
        return new Response(JSON.stringify({ error: { message: `Not found: ${req.method} ${path}`, type: "invalid_request_error" } }), { status: 404 });
      // Azure OpenAI: the deployment is in the path, the version in the query, the key in api-key;
      // without an api-version Azure answers 404 "Resource not found".
      const azure = /^\/openai\/deployments\/([^/]+)\/chat\/completions$/.exec(path);
      const apiVersion = url.searchParams.get("api-version") ?? undefined;
      if (azure && !apiVersion) return new Response(JSON.stringify({ error: { code: "404", message: "Resource not found" } }), { status: 404 });
      const body = (await req.json().catch(() => ({}))) as Record<string, unknown>;
      const model = azure ? decodeURIComponent(azure[1] ?? "") : typeof body.model === "string" ? body.model : "";
      const auth = azure ? authOfAzure(req, opts.keys?.openai) : authOf(req, format, opts.keys?.[format]);
      received.push({ at: Date.now(), format, path, model, auth, body, ...(apiVersion ? { apiVersion } : {}), ...turns(format, body) });
      if (format === "anthropic" && !req.headers.get("anthropic-version")) return errorResponse(format, 400, "anthropic-version header is required");
      if (auth !== "ok") return errorResponse(format, 401, format === "openai" ? "Incorrect API key provided." : "invalid x-api-key");
      const scenario = next(model);
      if (scenario.kind === "hang") {
        hangs++;
        req.signal.addEventListener("abort", () => hangs--);
        return new Promise<Response>(() => undefined);
      }
      if ("delayMs" in scenario && scenario.delayMs) await Bun.sleep(scenario.delayMs);
      if (scenario.kind === "status") return statusResponse(format, scenario, req);
      const stream = body.stream === true;
      return format === "openai" ? openaiReply(model, scenario, stream, body) : anthropicReply(model, scenario, stream);
    },
  });
  const url = `http://127.0.0.1:${server.port}`;
  return {
    url,
    openaiBase: `${url}/v1`,
    script: (model, ...scenarios) => void scripts.set(model, [...scenarios]),
    received: (model) => received.filter((r) => model === undefined || r.model === model),
    openHangs: () => hangs,
    stop: () => server.stop(true),
  };
}

function authOf(req: Request, format: WireFormat, expected: string | undefined): Received["auth"] {
  const given = format === "openai" ? req.headers.get("authorization")?.replace(/^Bearer\s+/i, "") : req.headers.get("x-api-key");
  if (expected === undefined) return "ok";
  if (!given) return "missing";
  return given === expected ? "ok" : "wrong";
}

/** Azure takes its key in api-key; a Bearer token there would be an Entra ID token, which this fake does not issue. */
function authOfAzure(req: Request, expected: string | undefined): Received["auth"] {
  const given = req.headers.get("api-key");
  if (expected === undefined) return "ok";
  if (!given) return "missing";
  return given === expected ? "ok" : "wrong";
}

function turns(format: WireFormat, body: Record<string, unknown>): { messages: { role: string; content: string }[]; system?: string } {
  const raw = Array.isArray(body.messages) ? (body.messages as { role: string; content: string }[]) : [];
  if (format === "anthropic") return { messages: raw, ...(typeof body.system === "string" ? { system: body.system } : {}) };
  const system = raw.find((m) => m.role === "system")?.content;
  return { messages: raw.filter((m) => m.role !== "system"), ...(system !== undefined ? { system } : {}) };
}

// ---- errors, as each API words them ----

const ERROR_TYPES: Record<WireFormat, Record<number, string>> = {
  openai: {
    400: "invalid_request_error",
    401: "invalid_request_error",
    404: "invalid_request_error",
    429: "requests",
    500: "server_error",
    503: "server_error",
  },
  anthropic: {
    400: "invalid_request_error",
    401: "authentication_error",
    404: "not_found_error",
    429: "rate_limit_error",
    500: "api_error",
    529: "overloaded_error",
  },
};

function errorResponse(format: WireFormat, status: number, message: string, headers: Record<string, string> = {}): Response {
  const type = ERROR_TYPES[format][status] ?? "api_error";
  const body =
    format === "openai"
      ? { error: { message, type, param: null, code: status === 429 ? "rate_limit_exceeded" : null } }
      : { type: "error", error: { type, message } };
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
}

/** The rate-limit headers a scenario asks for, named and formatted as the format's API sends them. */
function rateLimitHeaders(format: WireFormat, limit: RateLimit | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const kind of ["requests", "tokens"] as const) {
    const b = limit?.[kind];
    if (!b) continue;
    if (format === "openai") {
      out[`x-ratelimit-limit-${kind}`] = String(b.limit);
      out[`x-ratelimit-remaining-${kind}`] = String(b.remaining);
      out[`x-ratelimit-reset-${kind}`] = b.resetSec >= 60 ? `${Math.floor(b.resetSec / 60)}m${b.resetSec % 60}s` : `${b.resetSec}s`;
    } else {
      out[`anthropic-ratelimit-${kind}-limit`] = String(b.limit);
      out[`anthropic-ratelimit-${kind}-remaining`] = String(b.remaining);
      out[`anthropic-ratelimit-${kind}-reset`] = new Date(Math.ceil(Date.now() / 1000) * 1000 + b.resetSec * 1000).toISOString().replace(".000Z", "Z");
    }
  }
  return out;
}

function statusResponse(format: WireFormat, s: Extract<Scenario, { kind: "status" }>, req: Request): Response {
  const headers: Record<string, string> = rateLimitHeaders(format, s.rateLimit);
  if (s.retryAfter !== undefined) headers["retry-after"] = s.retryAfter;
  if (s.retryAfterMs !== undefined) headers["retry-after-ms"] = s.retryAfterMs;
  // A careless provider quoting the credential back, as some do in 401 bodies: the client must scrub it.
  const key = format === "openai" ? req.headers.get("authorization") : req.headers.get("x-api-key");
  const fallback = s.status === 429 ? "Rate limit reached for requests" : s.status === 529 ? "Overloaded" : `Upstream failure ${s.status}`;
  const message = s.echoKey ? `Incorrect API key provided: ${key ?? ""}` : (s.message ?? fallback);
  return errorResponse(format, s.status, message, headers);
}

// ---- OpenAI chat-completions ----

interface Reply {
  text: string;
  finish: string;
  native?: string;
  toolCall?: boolean;
  refusal?: boolean;
  usage: { input: number; output: number };
}

function replyOf(model: string, s: Scenario): Reply | undefined {
  const usage = { input: 10, output: 20 };
  switch (s.kind) {
    case "ok":
      return { text: s.text ?? `Hello from ${model}.`, finish: "stop", usage: s.usage ?? usage };
    case "json":
      return { text: JSON.stringify(s.value), finish: "stop", usage };
    case "truncate":
      return { text: s.text ?? "The answer begins but", finish: "length", usage: { input: 10, output: 64 } };
    case "filter":
      return { text: "", finish: "content_filter", usage };
    case "tool_call":
      return { text: "", finish: "tool_calls", toolCall: true, usage };
    case "native":
      return { text: s.text ?? "", finish: "stop", native: s.native, usage };
    case "empty":
      return { text: "", finish: "stop", usage };
    default:
      return undefined;
  }
}

function sse(records: (string | object)[]): string[] {
  return records.map((r) => (typeof r === "string" ? `${r}\n\n` : `data: ${JSON.stringify(r)}\n\n`));
}

function streamed(parts: string[], opts: { chunkDelayMs?: number | undefined; endWithSilence?: boolean } = {}, headers: Record<string, string> = {}): Response {
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      for (const part of parts) {
        controller.enqueue(encoder.encode(part));
        if (opts.chunkDelayMs) await Bun.sleep(opts.chunkDelayMs);
      }
      if (!opts.endWithSilence) controller.close();
    },
  });
  return new Response(body, { headers: { "content-type": "text/event-stream", "cache-control": "no-cache", ...headers } });
}

function chunksOf(text: string, n: number): string[] {
  if (text === "") return [];
  const size = Math.max(1, Math.ceil(text.length / n));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function openaiReply(model: string, s: Scenario, stream: boolean, body: Record<string, unknown>): Response {
  const base = { id: "chatcmpl-fake", object: "chat.completion.chunk", created: Math.floor(Date.now() / 1000), model };
  const chunk = (delta: object, finish: string | null = null, native?: string) => ({
    ...base,
    choices: [{ index: 0, delta, finish_reason: finish, ...(native ? { native_finish_reason: native } : {}) }],
  });
  if (s.kind === "malformed") return streamed(["data: {not json\n\n", "data: <html>oops</html>\n\n"]);
  if (s.kind === "overloaded_midstream")
    return streamed(sse([chunk({ role: "assistant", content: "Par" }), { error: { message: "Provider returned error: overloaded", code: 502 } }]));
  if (s.kind === "stall" || s.kind === "cut")
    return streamed(sse([chunk({ role: "assistant", content: s.text ?? "Partial" })]), { endWithSilence: s.kind === "stall" });
  const reply = replyOf(model, s);
  if (!reply) return errorResponse("openai", 500, "unscripted");
  const usage = {
    prompt_tokens: reply.usage.input,
    completion_tokens: reply.usage.output,
    total_tokens: reply.usage.input + reply.usage.output,
    ...(s.kind === "ok" && s.cost !== undefined ? { cost: s.cost } : {}),
  };
  const headers: Record<string, string> = {
    ...(s.kind === "ok" && s.costHeader ? { "x-litellm-response-cost": s.costHeader } : {}),
    ...rateLimitHeaders("openai", s.kind === "ok" ? s.rateLimit : undefined),
  };
  if (!stream) {
    const message = {
      role: "assistant",
      content: reply.toolCall ? null : reply.text,
      ...(reply.toolCall ? { tool_calls: [{ id: "call_1", type: "function", function: { name: "lookup", arguments: "{}" } }] } : {}),
    };
    return Response.json({ ...base, object: "chat.completion", choices: [{ index: 0, message, finish_reason: reply.finish }], usage }, { headers });
  }
  const records: (string | object)[] = [chunk({ role: "assistant", content: "" })];
  for (const piece of chunksOf(reply.text, s.kind === "ok" ? (s.chunks ?? 3) : 2)) records.push(chunk({ content: piece }));
  if (reply.toolCall) records.push(chunk({ tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "lookup", arguments: "{}" } }] }));
  records.push(chunk({}, reply.finish, reply.native));
  const include = (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
  if (include) records.push({ ...base, choices: [], usage });
  records.push("data: [DONE]");
  return streamed(sse(records), { chunkDelayMs: s.kind === "ok" ? s.chunkDelayMs : undefined }, headers);
}

// ---- Anthropic messages ----

const STOP_REASONS: Record<string, string> = { stop: "end_turn", length: "max_tokens", content_filter: "refusal", tool_calls: "tool_use" };

function event(type: string, data: object): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

function anthropicReply(model: string, s: Scenario, stream: boolean): Response {
  const start = event("message_start", {
    message: { id: "msg_fake", type: "message", role: "assistant", model, content: [], stop_reason: null, usage: { input_tokens: 10, output_tokens: 1 } },
  });
  if (s.kind === "malformed") return streamed(["event: message_start\ndata: {broken\n\n"]);
  if (s.kind === "overloaded_midstream") return streamed([start, event("error", { error: { type: "overloaded_error", message: "Overloaded" } })]);
  if (s.kind === "stall" || s.kind === "cut")
    return streamed(
      [
        start,
        event("content_block_start", { index: 0, content_block: { type: "text", text: "" } }),
        event("content_block_delta", { index: 0, delta: { type: "text_delta", text: s.text ?? "Partial" } }),
      ],
      { endWithSilence: s.kind === "stall" },
    );
  const reply = replyOf(model, s);
  if (!reply) return errorResponse("anthropic", 500, "unscripted");
  const stop = reply.native ?? STOP_REASONS[reply.finish] ?? "end_turn";
  const headers = rateLimitHeaders("anthropic", s.kind === "ok" ? s.rateLimit : undefined);
  if (!stream) {
    const content = reply.toolCall ? [{ type: "tool_use", id: "toolu_1", name: "lookup", input: {} }] : reply.text ? [{ type: "text", text: reply.text }] : [];
    return Response.json(
      {
        id: "msg_fake",
        type: "message",
        role: "assistant",
        model,
        content,
        stop_reason: stop,
        usage: { input_tokens: reply.usage.input, output_tokens: reply.usage.output },
      },
      { headers },
    );
  }
  const parts = [start];
  if (reply.toolCall)
    parts.push(
      event("content_block_start", { index: 0, content_block: { type: "tool_use", id: "toolu_1", name: "lookup", input: {} } }),
      event("content_block_stop", { index: 0 }),
    );
  else {
    parts.push(event("content_block_start", { index: 0, content_block: { type: "text", text: "" } }), event("ping", {}));
    for (const piece of chunksOf(reply.text, s.kind === "ok" ? (s.chunks ?? 3) : 2))
      parts.push(event("content_block_delta", { index: 0, delta: { type: "text_delta", text: piece } }));
    parts.push(event("content_block_stop", { index: 0 }));
  }
  parts.push(
    event("message_delta", { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: reply.usage.output } }),
    event("message_stop", {}),
  );
  return streamed(parts, { chunkDelayMs: s.kind === "ok" ? s.chunkDelayMs : undefined }, headers);
}
