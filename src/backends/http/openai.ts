/**
 * The OpenAI chat-completions wire format (POST …/chat/completions), as OpenAI, OpenRouter,
 * Ollama, vLLM, LM Studio and a LiteLLM proxy speak it. Written against the streaming format:
 * `data: {"choices":[{"delta":{"content":…},"finish_reason":…}], "usage":…}` records ending in
 * `data: [DONE]`, usage in the last record when `stream_options.include_usage` is set; a server
 * that answers with one whole `chat.completion` document is read as well.
 */
import { asObject, str, type Json } from "../events.ts";
import { BodyReader, count, errorOf } from "./body.ts";
import { finishOf } from "./finish.ts";
import type { ChatRequest, Endpoint, HttpCall, ParsedReply, ReplyParser, ReplyUsage, Sampling, Wire } from "./types.ts";

function build(endpoint: Endpoint, req: ChatRequest): HttpCall {
  const messages = [...(req.system ? [{ role: "system", content: req.system }] : []), ...req.messages];
  const body: Json = {
    model: req.model,
    messages,
    [endpoint.tokenField]: req.maxOutputTokens,
    stream: true,
    stream_options: { include_usage: true },
    // strict: false — strict mode accepts only a subset of JSON Schema; the reply is validated here anyway.
    ...(req.responseSchema ? { response_format: { type: "json_schema", json_schema: { name: "response", schema: req.responseSchema, strict: false } } } : {}),
    ...samplingFields(req.sampling),
    ...(endpoint.extraBody ?? {}),
  };
  return {
    url: endpoint.url,
    headers: { "content-type": "application/json", accept: "text/event-stream" },
    body: JSON.stringify(body),
    ...(endpoint.keyHeader ? { keyHeader: endpoint.keyHeader } : {}),
  };
}

/** Chat-completions' names for the operator's sampling parameters; unset ones are not sent. */
function samplingFields(s: Sampling | undefined): Json {
  if (!s) return {};
  const fields: [string, unknown][] = [
    ["temperature", s.temperature],
    ["top_p", s.topP],
    ["stop", s.stop],
    ["seed", s.seed],
    ["presence_penalty", s.presencePenalty],
    ["frequency_penalty", s.frequencyPenalty],
  ];
  return Object.fromEntries(fields.filter(([, v]) => v !== undefined));
}

function withKey(call: HttpCall, key: string): HttpCall {
  const header: Record<string, string> = call.keyHeader === "api-key" ? { "api-key": key } : { authorization: `Bearer ${key}` };
  return { ...call, headers: { ...call.headers, ...header } };
}

class OpenAIParser implements ReplyParser {
  private readonly reader = new BodyReader((record) => this.record(record));
  private readonly parts: string[] = [];
  private reported: string | undefined;
  private native: string | undefined;
  private refused = false;
  private toolCall = false;
  private usage?: ReplyUsage;
  private model: string | undefined;
  private error?: ParsedReply["error"];

  line(line: string): void {
    this.reader.line(line);
  }

  result(): ParsedReply {
    const whole = this.reader.finish();
    if (whole) this.record(whole);
    const finish = this.finish();
    return {
      text: this.parts.join(""),
      ...(finish ? { finish } : {}),
      ...(this.usage ? { usage: this.usage } : {}),
      ...(this.model ? { model: this.model } : {}),
      ...(this.error ? { error: this.error } : {}),
      records: this.reader.records,
      malformed: this.reader.malformed,
      oversized: this.reader.oversized,
    };
  }

  private finish(): ParsedReply["finish"] {
    const finish = finishOf(this.reported, this.native);
    // A refusal (structured outputs) or a tool call under a plain "stop" is still not an answer.
    if (this.refused) return { reason: "content_filter", native: finish?.native ?? "refusal" };
    if (this.toolCall && (!finish || finish.reason === "stop")) return { reason: "tool_calls", native: finish?.native ?? "tool_calls" };
    return finish;
  }

  private record(record: Json): void {
    const error = errorOf(record);
    if (error) this.error = error;
    this.model ??= str(record.model);
    const usage = asObject(record.usage);
    if (usage) this.usage = usageOf(usage);
    const choices = Array.isArray(record.choices) ? record.choices : [];
    const choice = asObject(choices[0]);
    if (choice) this.choice(choice);
  }

  private choice(choice: Json): void {
    // Streamed chunks carry `delta`; a whole completion carries `message`.
    const part = asObject(choice.delta) ?? asObject(choice.message);
    const content = str(part?.content);
    if (content) this.parts.push(content);
    if (str(part?.refusal)) this.refused = true;
    if (Array.isArray(part?.tool_calls) && part.tool_calls.length > 0) this.toolCall = true;
    if (asObject(part?.function_call)) this.toolCall = true;
    const reason = str(choice.finish_reason);
    if (reason) this.reported = reason;
    const native = str(choice.native_finish_reason);
    if (native) this.native = native;
  }
}

function usageOf(usage: Json): ReplyUsage {
  const input = count(usage.prompt_tokens);
  const output = count(usage.completion_tokens);
  const cost = count(usage.cost);
  return {
    ...(input !== undefined ? { inputTokens: input } : {}),
    ...(output !== undefined ? { outputTokens: output } : {}),
    ...(cost !== undefined ? { costUsd: cost } : {}),
  };
}

export const openaiWire: Wire = { format: "openai", build, withKey, parser: () => new OpenAIParser() };
