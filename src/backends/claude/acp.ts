import type { AcpProfile, Json } from "../contract.ts";
import { CLAUDE_MAX_RETRIES } from "./invocation.ts";

/**
 * The headless isolation (CLAUDE_ISOLATION_ARGS) over claude-agent-acp, which has no flag of its
 * own for it: it hands a session's `_meta.claudeCode.options` to the Claude Agent SDK's query(),
 * which passes `strictMcpConfig` to the claude it starts as --strict-mcp-config and
 * `settingSources: []` as --setting-sources "". The only MCP servers left are ACP's
 * `mcpServers`, which orchestrate sends empty (docs/acp.md). Without them every session started
 * the person's servers (user and local scope in ~/.claude.json, project scope in the cwd's
 * .mcp.json) and ran the person's hooks.
 */
export const CLAUDE_ACP_SESSION_META: Json = { claudeCode: { options: { strictMcpConfig: true, settingSources: [] } } };

/**
 * claude over ACP (`claude-agent-acp`, 0.23.1 bundling Claude Code 2.1.83; docs/acp.md): the
 * headless retry cap, and `IS_SANDBOX` removed — the adapter offers bypassPermissions for any
 * non-empty value but the claude it starts allows it as root only for exactly "1", so an
 * inherited `IS_SANDBOX=yes` breaks every session/new; without it there is no bypass mode and
 * plan mode asks. Answer mode is `default` (it asks before Bash and writes); a route is
 * `acceptEdits`, as headless. set_model accepts any id (its config option only the aliases); the
 * served model is never reported. It never exits on a closed stdin: its group is ended at once.
 * The person's MCP servers, hooks and settings stay out through each session's `_meta`
 * (CLAUDE_ACP_SESSION_META), on a load as on a new session.
 */
export const claudeAcp: AcpProfile = {
  launch: ["claude-agent-acp"],
  env: () => ({ CLAUDE_CODE_MAX_RETRIES: CLAUDE_MAX_RETRIES, CLAUDE_CODE_RETRY_WATCHDOG: undefined, IS_SANDBOX: undefined }),
  sessionMeta: () => CLAUDE_ACP_SESSION_META,
  modes: { answer: "default", route: "acceptEdits" },
  setModel: "set_model",
  exitGraceMs: 0,
  writes: {
    isolatedWrite: false,
    patch: true,
    why: "claude-agent-acp has no containment test of its own; acceptEdits over ACP is not the proven headless setup",
  },
  // PromptResponse.usage with the answer; usage_update carries the running cost in USD.
  traits: { usage: { tokens: "final", cost: "streamed", turns: "none" }, identity: "none", resumedUsage: "per-turn", containment: "none" },
};
