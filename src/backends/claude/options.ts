/**
 * claude's backend-only settings, `permissionMode` and `allowedTools`: their schema (gathered for
 * the config schema in ../index.ts) and how a run reads them back from the agent's options.
 */
import type { OptionValues } from "../contract.ts";

const PERMISSION_MODES = ["acceptEdits", "bypassPermissions"] as const;
export type ClaudePermissionMode = (typeof PERMISSION_MODES)[number];

export const CLAUDE_OPTION_DEFS = {
  "permissionMode?": "'acceptEdits' | 'bypassPermissions'",
  "allowedTools?": "(string > 0)[] <= 32",
} as const;

/** The configured permission mode; the config schema already refused any other word. */
export function claudePermissionMode(options: OptionValues | undefined): ClaudePermissionMode | undefined {
  return PERMISSION_MODES.find((m) => m === options?.permissionMode);
}

/** The configured --allowedTools rules, passed through as written. */
export function claudeAllowedTools(options: OptionValues | undefined): readonly string[] {
  const tools = options?.allowedTools;
  return Array.isArray(tools) ? tools : [];
}
