/**
 * Tools are data. A tool is declared once with its group, annotations and the name of its arktype
 * schemas; the wire JSON Schemas are generated from those at build time (src/mcp/generated/), so
 * listing tools never loads arktype. Validation and the handler are loaded on the first call.
 */
import type { Failure } from "../result.ts";

export type ToolGroup = "core" | "consult" | "jobs" | "init" | "history";

export interface ToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** What a handler sees besides its validated input. */
export interface ToolContext {
  signal: AbortSignal;
  /** Sends a progress notification when the client gave a token; a no-op otherwise. */
  progress(message: string, progress?: number, total?: number): void;
  /** True when the client sent a progress token. */
  wantsProgress: boolean;
  clientName?: string;
  /** Running as an MCP task: wait for the end instead of turning into a job at the sync budget. */
  runToCompletion?: boolean;
}

/** Handlers return this; they never throw on purpose. */
export type ToolOutcome = { ok: true; data: Record<string, unknown>; text: string } | { ok: false; error: Failure; data?: Record<string, unknown>; text?: string };

export interface ToolDef {
  name: string;
  group: ToolGroup;
  description: string;
  annotations: ToolAnnotations;
  /** Loads the arktype validator and the handler; both pull heavy modules, so only on demand. */
  load: () => Promise<LoadedTool>;
}

export interface LoadedTool {
  validate: (input: unknown) => { ok: true; value: Record<string, unknown> } | { ok: false; message: string };
  handler: (input: Record<string, unknown>, ctx: ToolContext) => Promise<ToolOutcome>;
}

export function defineTool(def: ToolDef): ToolDef {
  return def;
}
