/**
 * What is sent for one ask: the caller's system prompt with orchestrate's two additions — the way
 * to abstain when context is given (seed 002: abstention is typed, not prose to pattern-match)
 * and, in structured mode, the schema the reply must satisfy — and the repair turn that carries
 * the validator's complaint back to the model that produced the rejected reply.
 */
import type { ChatMessage } from "../../backends/http/types.ts";
import { ABSTAIN_SCHEMA, type JsonSchema } from "./structured.ts";

/** The exact reply that means "the context does not support an answer", in prose mode. */
export const ABSTAIN_TOKEN = "INSUFFICIENT_CONTEXT";

export interface PromptInput {
  prompt: string;
  system?: string;
  context?: string;
  schema?: JsonSchema;
}

export interface Conversation {
  system?: string;
  messages: ChatMessage[];
  /** The schema a provider that takes one natively is given (the caller's, or it-or-abstain). */
  wireSchema?: JsonSchema;
}

export function conversationFor(input: PromptInput): Conversation {
  const withContext = input.context !== undefined;
  const parts = [input.system, withContext ? abstainRule(input.schema !== undefined) : undefined, input.schema ? schemaRule(input.schema) : undefined].filter(
    (p): p is string => Boolean(p),
  );
  const user = withContext ? `<context>\n${input.context}\n</context>\n\n${input.prompt}` : input.prompt;
  const wireSchema = input.schema && withContext ? { anyOf: [input.schema, ABSTAIN_SCHEMA] } : input.schema;
  return { ...(parts.length ? { system: parts.join("\n\n") } : {}), messages: [{ role: "user", content: user }], ...(wireSchema ? { wireSchema } : {}) };
}

function abstainRule(structured: boolean): string {
  const reply = structured ? `the JSON object {"insufficient_context": true}` : ABSTAIN_TOKEN;
  return `Answer only from the material inside <context>. If it does not contain what the question needs, reply with exactly ${reply} and nothing else.`;
}

function schemaRule(schema: JsonSchema): string {
  return `Reply with one JSON value that satisfies this JSON Schema, and nothing else (no prose, no code fence):\n${JSON.stringify(schema)}`;
}

/** The rejected reply goes back to the model that wrote it, with what failed; never to the caller. */
export function repairTurn(conversation: Conversation, rejected: string, complaint: string): Conversation {
  const ask = `That reply was rejected: ${complaint}. Reply again with only the corrected JSON.`;
  return { ...conversation, messages: [...conversation.messages, { role: "assistant", content: rejected }, { role: "user", content: ask }] };
}
