import { allTools } from "../src/mcp/tools/index.ts";

type Json = Record<string, unknown>;

/**
 * Wire form of every tool's schemas, read from the tools' own defs (each loads its arktype types).
 * Output schemas describe an envelope: only `ok` is required, because a failure carries
 * `{ ok: false, error }` in the same structuredContent and the SDK client validates
 * structuredContent even on isError results.
 */
export async function renderToolSchemas(): Promise<string> {
  const out: Record<string, { inputSchema: Json; outputSchema: Json }> = {};
  for (const tool of allTools()) {
    const { input, output } = await tool.schemas();
    out[tool.name] = { inputSchema: wire(input.toJsonSchema()), outputSchema: envelope(wire(output.toJsonSchema())) };
  }
  return `${JSON.stringify(out, null, 2)}\n`;
}

/** Drops `$schema`: clients validate with their own draft and some reject the 2020-12 URI. */
function wire(schema: object): Json {
  const entries: [string, unknown][] = Object.entries(schema);
  return Object.fromEntries(entries.filter(([key]) => key !== "$schema"));
}

function envelope(schema: Json): Json {
  return { ...schema, required: ["ok"] };
}
