/** Tools whose calls may run as MCP tasks. */
export const TASK_TOOLS: ReadonlySet<string> = new Set(["route", "consult"]);
