import type { AcpProfile } from "../contract.ts";
import { retryCaps } from "./invocation.ts";

/**
 * codex over ACP (`codex-acp`, 0.16.0; docs/acp.md): the headless `-c` switches (the person's MCP
 * servers off by name, the custom provider's retries capped). Answer mode is `read-only` (its
 * sandbox refuses writes; a patch asks, and a rejected one ends the turn `cancelled`); a route is
 * `auto`. It has no session/set_model: the model goes through the `model` config option. Its
 * sandboxed children outlive session/cancel and it never exits on a closed stdin, so its group is
 * ended at once.
 */
export const codexAcp: AcpProfile = {
  launch: ["codex-acp"],
  args: (req) => [...(req.disableMcpServers ?? []).flatMap((name) => ["-c", `mcp_servers.${name}.enabled=false`]), ...retryCaps(req.configuredProvider)],
  modes: { answer: "read-only", route: "auto" },
  setModel: "config_option",
  exitGraceMs: 0,
  writes: { isolatedWrite: false, patch: true, why: "codex-acp has no containment test of its own; its sandbox under ACP is not proven" },
  // codex-acp answers only {stopReason}: usage_update{used,size} is the context window, not usage.
  traits: { usage: { tokens: "none", cost: "none", turns: "none" }, identity: "none", resumedUsage: "per-turn", containment: "none" },
};
