import { describe, expect, test } from "bun:test";
import { classifyExchange, resolveEndpoint, retryAfterOf, wireFor, type ParsedReply } from "../../src/backends/http/index.ts";

function parse(format: "openai" | "anthropic", body: string): ParsedReply {
  const parser = wireFor(format).parser();
  for (const line of body.split("\n")) parser.line(line);
  return parser.result();
}

const sse = (...records: unknown[]): string => records.map((r) => (typeof r === "string" ? r : `data: ${JSON.stringify(r)}\n`)).join("\n");

describe("endpoints from LiteLLM-style model ids", () => {
  test("seed 002's examples resolve to the right format, URL and default key", () => {
    const anthropic = resolveEndpoint("anthropic/claude-sonnet-4-5");
    expect(anthropic.ok && anthropic.value).toMatchObject({
      apiModel: "claude-sonnet-4-5",
      defaultKeyEnv: "ANTHROPIC_API_KEY",
      endpoint: { wire: "anthropic", url: "https://api.anthropic.com/v1/messages" },
    });
    const vllm = resolveEndpoint("openai/qwen-coder", "http://vllm.internal:8000/v1");
    expect(vllm.ok && vllm.value).toMatchObject({
      apiModel: "qwen-coder",
      endpoint: { wire: "openai", url: "http://vllm.internal:8000/v1/chat/completions", tokenField: "max_tokens" },
    });
    const ollama = resolveEndpoint("ollama_chat/qwen2.5:7b", "http://localhost:11434");
    expect(ollama.ok && ollama.value.endpoint.url).toBe("http://localhost:11434/v1/chat/completions");
    const openrouter = resolveEndpoint("openrouter/anthropic/claude-sonnet-4.5");
    expect(openrouter.ok && openrouter.value).toMatchObject({ apiModel: "anthropic/claude-sonnet-4.5", defaultKeyEnv: "OPENROUTER_API_KEY" });
  });

  test("a provider's default key is never sent to a base URL of your own", () => {
    const own = resolveEndpoint("openai/gpt-x", "http://127.0.0.1:9/v1");
    expect(own.ok && own.value.defaultKeyEnv).toBeUndefined();
    const official = resolveEndpoint("openai/gpt-x");
    expect(official.ok && official.value).toMatchObject({ defaultKeyEnv: "OPENAI_API_KEY", endpoint: { tokenField: "max_completion_tokens" } });
  });

  test("unknown prefixes, bare ids, missing or credential-bearing base URLs are refused with a fix", () => {
    for (const [model, base] of [
      ["azure/gpt-4o", undefined],
      ["gpt-4o", undefined],
      ["hosted_vllm/x", undefined],
      ["openai/x", "ftp://h/v1"],
      ["openai/x", "http://user:pw@h/v1"],
    ] as const) {
      const r = resolveEndpoint(model, base);
      expect(r.ok, `${model} ${base}`).toBe(false);
      if (!r.ok) expect(r.fix.length).toBeGreaterThan(10);
    }
  });
});

describe("request builders", () => {
  const request = {
    model: "m",
    system: "be brief",
    messages: [{ role: "user" as const, content: "hi" }],
    maxOutputTokens: 64,
    responseSchema: { type: "object" },
  };

  test("openai: system message first, streaming with usage, json_schema response format, key only via withKey", () => {
    const wire = wireFor("openai");
    const endpoint = { wire: "openai" as const, url: "http://x/v1/chat/completions", provider: "openai", tokenField: "max_tokens" as const };
    const call = wire.build(endpoint, request);
    expect(call.headers.authorization).toBeUndefined();
    const body = JSON.parse(call.body);
    expect(body).toMatchObject({
      model: "m",
      max_tokens: 64,
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        { role: "system", content: "be brief" },
        { role: "user", content: "hi" },
      ],
    });
    expect(body.response_format.json_schema.schema).toEqual({ type: "object" });
    expect(wire.withKey(call, "k1").headers.authorization).toBe("Bearer k1");
  });

  test("anthropic: system apart, max_tokens, version header, x-api-key", () => {
    const wire = wireFor("anthropic");
    const call = wire.build({ wire: "anthropic", url: "http://x/v1/messages", provider: "anthropic", tokenField: "max_tokens" }, request);
    expect(JSON.parse(call.body)).toMatchObject({ model: "m", max_tokens: 64, system: "be brief", stream: true, messages: [{ role: "user", content: "hi" }] });
    expect(call.headers["anthropic-version"]).toBe("2023-06-01");
    expect(wire.withKey(call, "k2").headers["x-api-key"]).toBe("k2");
  });
});

describe("stream parsers", () => {
  test("openai: deltas join, the finish reason and usage (with cost) arrive late", () => {
    const body = sse(
      ": OPENROUTER PROCESSING",
      { model: "m-1", choices: [{ delta: { role: "assistant", content: "Hel" } }] },
      { choices: [{ delta: { content: "lo" } }] },
      { choices: [{ delta: {}, finish_reason: "stop" }] },
      { choices: [], usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5, cost: 0.001 } },
      "data: [DONE]",
    );
    expect(parse("openai", body)).toMatchObject({
      text: "Hello",
      finish: { reason: "stop" },
      usage: { inputTokens: 3, outputTokens: 2, costUsd: 0.001 },
      model: "m-1",
      malformed: 0,
    });
  });

  test("openai: a native reason behind a plain stop decides (seed 002: malformed function call, unspecified)", () => {
    for (const [native, reason] of [
      ["MALFORMED_FUNCTION_CALL", "tool_calls"],
      ["FINISH_REASON_UNSPECIFIED", "other"],
      ["SAFETY", "content_filter"],
      ["STOP", "stop"],
    ] as const) {
      const body = sse({ choices: [{ delta: { content: "x" } }] }, { choices: [{ delta: {}, finish_reason: "stop", native_finish_reason: native }] });
      expect(parse("openai", body).finish?.reason, native).toBe(reason);
    }
  });

  test("openai: tool calls and refusals are never a plain stop", () => {
    const tool = sse(
      { choices: [{ delta: { tool_calls: [{ index: 0, function: { name: "f", arguments: "{}" } }] } }] },
      { choices: [{ delta: {}, finish_reason: "stop" }] },
    );
    expect(parse("openai", tool).finish?.reason).toBe("tool_calls");
    const refusal = sse({ choices: [{ delta: { refusal: "I can't" } }] }, { choices: [{ delta: {}, finish_reason: "stop" }] });
    expect(parse("openai", refusal).finish?.reason).toBe("content_filter");
  });

  test("openai: a whole (non-streamed) completion and an error body", () => {
    const whole = JSON.stringify(
      {
        model: "m",
        choices: [{ message: { role: "assistant", content: "whole" }, finish_reason: "length" }],
        usage: { prompt_tokens: 1, completion_tokens: 9 },
      },
      null,
      2,
    );
    expect(parse("openai", whole)).toMatchObject({ text: "whole", finish: { reason: "length" }, usage: { outputTokens: 9 } });
    expect(parse("openai", JSON.stringify({ error: { message: "Rate limit reached", type: "requests" } })).error).toEqual({
      type: "requests",
      message: "Rate limit reached",
    });
  });

  test("anthropic: events fold into text, stop reason and cumulative usage; tool_use is a tool call", () => {
    const body = [
      "event: message_start",
      `data: ${JSON.stringify({ type: "message_start", message: { model: "claude-x", usage: { input_tokens: 12, output_tokens: 1 } } })}`,
      "",
      "event: content_block_start",
      `data: ${JSON.stringify({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } })}`,
      `data: ${JSON.stringify({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hi " } })}`,
      `data: ${JSON.stringify({ type: "ping" })}`,
      `data: ${JSON.stringify({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "there" } })}`,
      `data: ${JSON.stringify({ type: "message_delta", delta: { stop_reason: "max_tokens" }, usage: { output_tokens: 7 } })}`,
      `data: ${JSON.stringify({ type: "message_stop" })}`,
    ].join("\n");
    expect(parse("anthropic", body)).toMatchObject({
      text: "Hi there",
      finish: { reason: "length", native: "max_tokens" },
      usage: { inputTokens: 12, outputTokens: 7 },
      model: "claude-x",
    });
    const tool = [
      `data: ${JSON.stringify({ type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "t", name: "f", input: {} } })}`,
      `data: ${JSON.stringify({ type: "message_delta", delta: { stop_reason: "tool_use" } })}`,
    ].join("\n");
    expect(parse("anthropic", tool).finish?.reason).toBe("tool_calls");
    const overloaded = `event: error\ndata: ${JSON.stringify({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } })}`;
    expect(parse("anthropic", overloaded).error).toEqual({ type: "overloaded_error", message: "Overloaded" });
  });
});

describe("what an exchange came to", () => {
  const reply = (over: Partial<ParsedReply> = {}): ParsedReply => ({ text: "", records: 1, malformed: 0, oversized: false, ...over });
  const facts = (status: number | null, r: ParsedReply, headers: Record<string, string> = {}) => ({ status, headers, reply: r, now: 0 });

  test("a finished answer; a truncated, filtered, tool-call or empty reply is a non-answer", () => {
    expect(classifyExchange(facts(200, reply({ text: "ok", finish: { reason: "stop", native: "stop" } })))).toMatchObject({ kind: "answer", text: "ok" });
    expect(classifyExchange(facts(200, reply({ text: "half", finish: { reason: "length", native: "length" } })))).toMatchObject({
      kind: "non_answer",
      why: "output_truncated",
      finish: "length",
    });
    expect(classifyExchange(facts(200, reply({ finish: { reason: "content_filter", native: "content_filter" } })))).toMatchObject({ why: "content_filtered" });
    expect(classifyExchange(facts(200, reply({ finish: { reason: "tool_calls", native: "tool_calls" } })))).toMatchObject({ why: "unexpected_finish" });
    expect(classifyExchange(facts(200, reply({ text: "  ", finish: { reason: "stop", native: "stop" } })))).toMatchObject({ why: "empty_answer" });
  });

  test("statuses: auth, rate limit with retry-after, server, request, redirect; a cut stream and garbage", () => {
    expect(classifyExchange(facts(401, reply()))).toMatchObject({ kind: "failed", failure: "auth" });
    expect(classifyExchange(facts(429, reply(), { "retry-after": "7" }))).toMatchObject({ failure: "rate_limited", retryAfterMs: 7000 });
    expect(classifyExchange(facts(529, reply()))).toMatchObject({ failure: "rate_limited" });
    expect(classifyExchange(facts(503, reply()))).toMatchObject({ failure: "server" });
    expect(classifyExchange(facts(400, reply()))).toMatchObject({ failure: "bad_request" });
    expect(classifyExchange(facts(302, reply()))).toMatchObject({ failure: "misconfigured" });
    expect(classifyExchange(facts(200, reply({ text: "par" })))).toMatchObject({ failure: "transport", detail: "the stream ended before the model finished" });
    expect(classifyExchange(facts(200, reply({ records: 0, malformed: 3 })))).toMatchObject({
      failure: "transport",
      detail: "the response was not JSON records",
    });
    expect(classifyExchange({ ...facts(null, reply({ records: 0 })), startError: "ECONNREFUSED" })).toMatchObject({ failure: "transport", status: null });
  });

  test("retry-after: milliseconds first, then seconds or an HTTP date", () => {
    expect(retryAfterOf({ "retry-after-ms": "250", "retry-after": "1" }, 0)).toBe(250);
    expect(retryAfterOf({ "retry-after": "2" }, 0)).toBe(2000);
    expect(retryAfterOf({ "retry-after": new Date(10_000).toUTCString() }, 4_000)).toBe(6000);
    expect(retryAfterOf({ "retry-after": "soon" }, 0)).toBeUndefined();
  });
});
