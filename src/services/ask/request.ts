/**
 * The boundaries of an ask, all checked before any provider is called (seed 002): a capability
 * that exists, a non-empty prompt, prompt / system / context within their limits, a
 * max_output_tokens the operator allows, and a response_schema that is within its size cap,
 * parses and compiles.
 */
import type { AskCapability, AskConfig } from "../../config/types.ts";
import { fail, ok, type Result } from "../../result.ts";
import { conversationFor, type Conversation } from "./prompt.ts";
import { prepareSchema, type PreparedSchema } from "./structured.ts";

/** The ask tool's arguments (mcp/tools/ask/schema.ts validates them; unknown keys were already refused). */
export interface AskRequest {
  capability: string;
  prompt: string;
  system?: string;
  context?: string;
  response_schema?: string | Record<string, unknown>;
  max_output_tokens?: number;
  /** Check the request and show where it would go with its estimated cost; send nothing (dry-run.ts). */
  dry_run?: boolean;
}

export interface CheckedRequest {
  capability: AskCapability;
  conversation: Conversation;
  schema?: PreparedSchema;
  maxOutputTokens: number;
  withContext: boolean;
}

/** Seed 002 refuses every bad request at the boundary with one code, invalid_request; the message says which part. */
type CheckCode = "invalid_request";

export async function checkRequest(ask: AskConfig, req: AskRequest): Promise<Result<CheckedRequest, CheckCode>> {
  const capability = Object.hasOwn(ask.capabilities, req.capability) ? ask.capabilities[req.capability] : undefined;
  if (!capability)
    return fail(
      "invalid_request",
      `No capability ${JSON.stringify(req.capability.slice(0, 64))}; this server serves: ${Object.keys(ask.capabilities).join(", ") || "none"}.`,
    );
  if (req.prompt.trim() === "") return fail("invalid_request", "prompt is empty.");
  const sized = checkSizes(ask, req);
  if (!sized.ok) return sized;
  const maxOutputTokens = req.max_output_tokens ?? ask.limits.maxOutputTokens;
  if (maxOutputTokens > ask.limits.maxOutputTokens)
    return fail(
      "invalid_request",
      `max_output_tokens ${maxOutputTokens} is above this server's limit of ${ask.limits.maxOutputTokens} (limits.maxOutputTokens).`,
    );
  const schema = req.response_schema !== undefined ? await prepareSchema(req.response_schema, ask.limits.maxSchemaChars) : undefined;
  if (schema && !schema.ok) return schema;
  const conversation = conversationFor({
    prompt: req.prompt,
    ...(req.system !== undefined ? { system: req.system } : {}),
    ...(req.context !== undefined ? { context: req.context } : {}),
    ...(schema ? { schema: schema.value.schema } : {}),
  });
  return ok({ capability, conversation, ...(schema ? { schema: schema.value } : {}), maxOutputTokens, withContext: req.context !== undefined });
}

function checkSizes(ask: AskConfig, req: AskRequest): Result<true, "invalid_request"> {
  const { maxPromptChars, maxSystemChars, maxContextChars } = ask.limits;
  const over = (name: string, text: string | undefined, limit: number, key: string) =>
    text !== undefined && text.length > limit
      ? fail(
          "invalid_request",
          `${name} is ${text.length} characters; this server allows ${limit} (limits.${key}).`,
          `Shorten ${name}, or raise limits.${key} in the config.`,
        )
      : undefined;
  return (
    over("prompt", req.prompt, maxPromptChars, "maxPromptChars") ??
    over("system", req.system, maxSystemChars, "maxSystemChars") ??
    over("context", req.context, maxContextChars, "maxContextChars") ??
    ok(true)
  );
}
