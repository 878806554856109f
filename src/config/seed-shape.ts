/**
 * Whether parsed config data is one of the Orchestrator tools' files, by shape alone. Light (no
 * schema library): discovery (paths.ts) uses it to decide whether a working-directory config.yaml
 * is that tool's, and tools/list (mcp/tools/names.ts) whether to advertise Orchestrator MCP's
 * tool names.
 */

/** orchestrator: Orchestrator MCP (seed 001). orchestrator-mcp: the earlier LiteLLM-style tool (seed 002). */
export type SeedShape = "orchestrator" | "orchestrator-mcp";

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function seedShapeOf(raw: unknown): SeedShape | undefined {
  if (!isObject(raw)) return undefined;
  // model_list is LiteLLM's key: no other format has it, so a seed 002 file is recognised by it alone.
  if (Object.hasOwn(raw, "model_list")) return "orchestrator-mcp";
  const keys = Object.keys(raw);
  const consult = raw.consult;
  // A unified file may hold `consult: {timeoutSec}` too; only a lone consult block with other keys is Orchestrator's.
  if (keys.length === 1 && isObject(consult) && Object.keys(consult).some((k) => k !== "timeoutSec")) return "orchestrator";
  return undefined;
}
