import type { AcpProfile } from "../contract.ts";
import { ANSWER_DENY_RULES } from "./invocation.ts";

/**
 * copilot over ACP (`copilot --acp`, 1.0.102; docs/acp.md): the headless switches (no built-in
 * GitHub MCP servers, the person's own switched off by name, shell and write denied in answer
 * mode, no inherited COPILOT_ALLOW_ALL) and `allow_all` off, so its agent mode asks before a
 * shell command or a write. set_model accepts any id and the next request uses it; the served
 * model is never reported. An API failure does not fail the prompt: it ends `end_turn` with an
 * "Error: Failed to get response from the AI model …" message, which reads as the failure it is.
 */
export const copilotAcp: AcpProfile = {
  launch: ["copilot", "--acp", "--no-auto-update"],
  args: (req) => [
    "--disable-builtin-mcps",
    ...(req.disableMcpServers ?? []).map((name) => `--disable-mcp-server=${name}`),
    ...(req.mode === "answer" ? ANSWER_DENY_RULES.map((rule) => `--deny-tool=${rule}`) : []),
  ],
  env: () => ({ COPILOT_ALLOW_ALL: undefined }),
  configOptions: { answer: { allow_all: "off" }, route: { allow_all: "off" } },
  setModel: "set_model",
  exitGraceMs: 1000,
  failedTurnText: /^\s*Error: Failed to get response from the AI model/,
  writes: {
    isolatedWrite: false,
    patch: true,
    why: "copilot over ACP has no containment test of its own; its agent mode asks, and an allowed act reaches the machine",
  },
  // PromptResponse.usage with the answer; its usage_update has no cost.
  traits: { usage: { tokens: "final", cost: "none", turns: "none" }, identity: "none", resumedUsage: "per-turn", containment: "none" },
};
