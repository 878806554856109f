/** The wire form of the tool list: the same answer whether the handshake or the SDK gives it. */
import type { ToolDef } from "../define.ts";
import schemas from "../generated/schemas.json" with { type: "json" };
import { compiledIn } from "../../safety/egress.ts";

type SchemaEntry = { inputSchema: Record<string, unknown>; outputSchema: Record<string, unknown> };
const SCHEMAS: Record<string, SchemaEntry | undefined> = schemas;
compiledIn(schemas);

export function wireTool(tool: ToolDef): Record<string, unknown> {
  const schema = SCHEMAS[tool.name];
  const input = schema?.inputSchema ?? { type: "object" };
  const fixed = {
    name: tool.wireName ?? tool.name,
    title: tool.annotations.title,
    description: tool.description,
    ...(schema?.outputSchema ? { outputSchema: schema.outputSchema } : {}),
    annotations: tool.annotations,
    ...(tool.task ? { execution: { taskSupport: "optional" } } : {}),
  };
  // Written here, not read at run time: the egress scrub lets it through unread. The input schema a
  // tool narrows to the config (ask: its capability enum) is not declared, so it is scrubbed.
  compiledIn(fixed);
  const { name, title, description, ...rest } = fixed;
  // A tool may narrow its generated schema to this process's config (ask: its capability enum and limits).
  return { name, title, description, inputSchema: tool.wireInput ? tool.wireInput(input) : input, ...rest };
}
