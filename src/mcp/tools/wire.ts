/** The wire form of the tool list: the same answer whether the handshake or the SDK gives it. */
import type { ToolDef } from "../define.ts";
import schemas from "../generated/schemas.json" with { type: "json" };

type SchemaEntry = { inputSchema: Record<string, unknown>; outputSchema: Record<string, unknown> };
const SCHEMAS: Record<string, SchemaEntry | undefined> = schemas;

export function wireTool(tool: ToolDef): Record<string, unknown> {
  const schema = SCHEMAS[tool.name];
  const input = schema?.inputSchema ?? { type: "object" };
  return {
    name: tool.wireName ?? tool.name,
    title: tool.annotations.title,
    description: tool.description,
    // A tool may narrow its generated schema to this process's config (ask: its capability enum and limits).
    inputSchema: tool.wireInput ? tool.wireInput(input) : input,
    ...(schema?.outputSchema ? { outputSchema: schema.outputSchema } : {}),
    annotations: tool.annotations,
    ...(tool.task ? { execution: { taskSupport: "optional" } } : {}),
  };
}
