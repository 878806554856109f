import { toolSchemas } from "../src/mcp/schemas/index.ts";

type Json = Record<string, unknown>;

/**
 * Wire form of every tool's schemas. Output schemas describe an envelope: only `ok` is required,
 * because a failure carries `{ ok: false, error }` in the same structuredContent and the SDK client
 * validates structuredContent even on isError results.
 */
export function renderToolSchemas(): string {
  const out: Record<string, { inputSchema: Json; outputSchema: Json }> = {};
  for (const [name, pair] of Object.entries(toolSchemas)) {
    out[name] = { inputSchema: wire(pair.input.toJsonSchema() as Json), outputSchema: envelope(wire(pair.output.toJsonSchema() as Json)) };
  }
  return `${JSON.stringify(out, null, 2)}\n`;
}

/** Drops `$schema`: clients validate with their own draft and some reject the 2020-12 URI. */
function wire(schema: Json): Json {
  const { $schema: _ignored, ...rest } = schema;
  return rest;
}

function envelope(schema: Json): Json {
  return { ...schema, required: ["ok"] };
}
