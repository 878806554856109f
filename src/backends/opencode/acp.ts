import type { AcpProfile } from "../contract.ts";
import { AUTH_TEXT, CAPACITY_TEXT, TRANSPORT_TEXT } from "./failure-text.ts";
import { answerEnv, routeEnv } from "./invocation.ts";

/**
 * opencode over ACP (`opencode acp`, 1.18.33; docs/acp.md): the headless configs exactly — answer
 * mode's inline config denies every tool but the read-only ones, with no MCP servers or plugins
 * (opencode never asks for a permission unless its config says `ask`, and its `plan` mode still
 * runs bash); a route keeps the person's config with their MCP servers switched off by name. It
 * refuses an unknown model (-32602), so the model goes through the session's `model` option.
 * Signed out it does not fail: it runs on a free hosted model, so its readiness probe runs first.
 */
export const opencodeAcp: AcpProfile = {
  launch: ["opencode", "acp"],
  env: (req) => (req.mode === "answer" ? answerEnv(req) : (routeEnv(req).env ?? {})),
  setModel: "config_option",
  exitGraceMs: 1000,
  failures: { auth: AUTH_TEXT, capacity: CAPACITY_TEXT, transport: TRANSPORT_TEXT },
  preflight: true,
  writes: { isolatedWrite: false, patch: true, why: "opencode over ACP keeps the person's config, whose build agent runs bash without approval" },
  // PromptResponse.usage with the answer; usage_update carries the running cost.
  traits: { usage: { tokens: "final", cost: "streamed", turns: "none" }, identity: "none", resumedUsage: "per-turn", containment: "none" },
};
