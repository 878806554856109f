/**
 * codex's one backend-only setting, `sandbox`: its schema (gathered for the config schema in
 * ../index.ts) and how a run reads it back from the agent's options.
 */
import type { OptionValues } from "../contract.ts";

const SANDBOXES = ["read-only", "workspace-write", "danger-full-access"] as const;
export type CodexSandbox = (typeof SANDBOXES)[number];

export const CODEX_OPTION_DEFS = { "sandbox?": "'read-only' | 'workspace-write' | 'danger-full-access'" } as const;

/** The configured sandbox; the config schema already refused any other word. */
export function codexSandbox(options: OptionValues | undefined): CodexSandbox | undefined {
  return SANDBOXES.find((s) => s === options?.sandbox);
}
