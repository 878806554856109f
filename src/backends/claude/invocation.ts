/**
 * argv, stdin and environment for one claude run (docs/backends/claude.md, "How a run is started"
 * and "Retries and the environment").
 */
import type { Invocation, RunRequest } from "../contract.ts";
import { claudeAllowedTools, claudePermissionMode } from "./options.ts";

/** Always passed: no MCP servers, hooks or settings of the user's own leak into a delegated run. */
export const CLAUDE_ISOLATION_ARGS = ["--strict-mcp-config", "--mcp-config", '{"mcpServers":{}}', "--setting-sources", ""] as const;

/**
 * Claude retries 401/429/5xx up to 10 times over ~3 minutes by default (docs/backends/claude.md,
 * "Retries and the environment"). One retry absorbs a blip; orchestrate's own fallback and
 * cooldowns handle the rest.
 */
export const CLAUDE_MAX_RETRIES = "1";

/** Claude Code's own web tools: WebSearch (a server-side search) and WebFetch (one URL). */
export const CLAUDE_WEB_TOOLS = ["WebSearch", "WebFetch"] as const;

export function claudeInvocation(req: RunRequest): Invocation {
  const args = ["-p", "--output-format", "stream-json", "--verbose", ...CLAUDE_ISOLATION_ARGS];
  if (req.mode === "answer") {
    // --safe-mode also drops CLAUDE.md, skills, plugins and hooks; --tools "" sends no tools at all.
    // With web granted the only tools sent are the two web ones, pre-approved (dontAsk denies the rest).
    const web = req.web ? CLAUDE_WEB_TOOLS.join(",") : "";
    args.push("--safe-mode", "--tools", web, "--permission-mode", "dontAsk");
    if (req.web) args.push("--allowedTools", ...CLAUDE_WEB_TOOLS);
    if (req.outputSchema) args.push("--json-schema", req.outputSchema);
  } else {
    // bypassPermissions is refused as root unless IS_SANDBOX=1 — deliberately not set here.
    args.push("--permission-mode", claudePermissionMode(req.options) ?? "acceptEdits");
    const allowed = claudeAllowedTools(req.options);
    if (allowed.length) args.push("--allowedTools", ...allowed);
  }
  if (req.model) args.push("--model", req.model);
  if (req.resumeSessionId) args.push("--resume", req.resumeSessionId);
  // The prompt goes on stdin (closed after writing): several options are variadic and would
  // swallow a trailing positional prompt, and argv is visible to every local user.
  return { args, stdin: req.prompt, env: claudeEnv(req) };
}

/**
 * The retry cap, and two inherited variables a router must not pass on (docs/backends/claude.md,
 * "Retries and the environment"): any non-empty `IS_SANDBOX` (common in containers) turns off
 * claude's own stop after 3 consecutive 529s (2.45 s becomes 175 s), and
 * `CLAUDE_CODE_RETRY_WATCHDOG` retries 429/529 for up to 6 hours. `IS_SANDBOX` stays only where a
 * person's bypassPermissions needs it: claude refuses that mode as root without `IS_SANDBOX=1`,
 * and the cap of one retry keeps a 529 short anyway.
 */
function claudeEnv(req: RunRequest): Record<string, string | undefined> {
  const bypass = req.mode === "route" && claudePermissionMode(req.options) === "bypassPermissions";
  return { CLAUDE_CODE_MAX_RETRIES: CLAUDE_MAX_RETRIES, CLAUDE_CODE_RETRY_WATCHDOG: undefined, ...(bypass ? {} : { IS_SANDBOX: undefined }) };
}
