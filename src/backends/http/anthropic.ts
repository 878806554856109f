/**
 * The Anthropic messages wire format (POST /v1/messages, anthropic-version 2023-06-01), written
 * against its streaming events: message_start (model, input tokens), content_block_start /
 * content_block_delta (text_delta; a tool_use block is a tool call), message_delta (stop_reason,
 * output tokens), message_stop, ping, and `error` mid-stream (overloaded_error). A whole
 * `message` document (a server that ignored `stream`) and `{"type":"error"}` bodies are read too.
 * There is no native response format: structured mode states the schema in the system prompt and
 * the reply is validated locally, as for every format.
 */
import { asObject, str, type Json } from "../events.ts";
import { BodyReader, count, errorOf } from "./body.ts";
import { finishOf } from "./finish.ts";
import type { ChatRequest, Endpoint, HttpCall, ParsedReply, ReplyParser, ReplyUsage, Wire } from "./types.ts";

export const ANTHROPIC_VERSION = "2023-06-01";

function build(endpoint: Endpoint, req: ChatRequest): HttpCall {
  const body: Json = {
    model: req.model,
    max_tokens: req.maxOutputTokens,
    ...(req.system ? { system: req.system } : {}),
    messages: req.messages,
    stream: true,
    ...(req.sampling?.temperature !== undefined ? { temperature: req.sampling.temperature } : {}),
    ...(req.sampling?.topP !== undefined ? { top_p: req.sampling.topP } : {}),
    ...(req.sampling?.stop !== undefined ? { stop_sequences: req.sampling.stop } : {}),
    ...(endpoint.extraBody ?? {}),
  };
  return {
    url: endpoint.url,
    headers: { "content-type": "application/json", accept: "text/event-stream", "anthropic-version": ANTHROPIC_VERSION },
    body: JSON.stringify(body),
  };
}

function withKey(call: HttpCall, key: string): HttpCall {
  return { ...call, headers: { ...call.headers, "x-api-key": key } };
}

class AnthropicParser implements ReplyParser {
  private readonly reader = new BodyReader((record) => this.record(record));
  private readonly parts: string[] = [];
  private stop: string | undefined;
  private toolCall = false;
  private input: number | undefined;
  private output: number | undefined;
  private model: string | undefined;
  private error?: ParsedReply["error"];

  line(line: string): void {
    this.reader.line(line);
  }

  result(): ParsedReply {
    const whole = this.reader.finish();
    if (whole) this.whole(whole);
    const finish =
      this.toolCall && (this.stop === undefined || this.stop === "end_turn")
        ? { reason: "tool_calls" as const, native: this.stop ?? "tool_use" }
        : finishOf(this.stop, undefined);
    const usage = this.usage();
    return {
      text: this.parts.join(""),
      ...(finish ? { finish } : {}),
      ...(usage ? { usage } : {}),
      ...(this.model ? { model: this.model } : {}),
      ...(this.error ? { error: this.error } : {}),
      records: this.reader.records,
      malformed: this.reader.malformed,
      oversized: this.reader.oversized,
    };
  }

  private usage(): ReplyUsage | undefined {
    if (this.input === undefined && this.output === undefined) return undefined;
    return { ...(this.input !== undefined ? { inputTokens: this.input } : {}), ...(this.output !== undefined ? { outputTokens: this.output } : {}) };
  }

  private record(record: Json): void {
    switch (record.type) {
      case "message_start":
        this.message(asObject(record.message) ?? {});
        return;
      case "content_block_start":
        this.block(asObject(record.content_block) ?? {});
        return;
      case "content_block_delta": {
        const delta = asObject(record.delta);
        const text = delta?.type === "text_delta" ? str(delta.text) : undefined;
        if (text) this.parts.push(text);
        return;
      }
      case "message_delta":
        this.stop = str(asObject(record.delta)?.stop_reason) ?? this.stop;
        this.figures(asObject(record.usage));
        return;
      case "error":
        this.error = errorOf(record) ?? { type: "error" };
        return;
      default:
        return;
    }
  }

  private message(message: Json): void {
    this.model ??= str(message.model);
    this.figures(asObject(message.usage));
  }

  private block(block: Json): void {
    if (block.type === "tool_use" || block.type === "server_tool_use") this.toolCall = true;
    const text = block.type === "text" ? str(block.text) : undefined;
    if (text) this.parts.push(text);
  }

  /** Cumulative counts: message_start carries input, each message_delta the output so far. */
  private figures(usage: Json | undefined): void {
    if (!usage) return;
    this.input = count(usage.input_tokens) ?? this.input;
    this.output = count(usage.output_tokens) ?? this.output;
  }

  private whole(doc: Json): void {
    if (doc.type === "error" || doc.error !== undefined) {
      this.error = errorOf(doc) ?? { type: "error" };
      return;
    }
    this.message(doc);
    for (const block of Array.isArray(doc.content) ? doc.content : []) this.block(asObject(block) ?? {});
    this.stop = str(doc.stop_reason) ?? this.stop;
  }
}

export const anthropicWire: Wire = { format: "anthropic", build, withKey, parser: () => new AnthropicParser() };
