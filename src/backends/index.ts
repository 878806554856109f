/**
 * The registry: the one list of backends. `BACKENDS`, the `Backend` type and every per-backend
 * table elsewhere derive from it, so adding a backend is its folder plus one line here.
 * Backends are pure data and functions, so importing them all costs nothing to speak of.
 */
import type { Adapter } from "./contract.ts";
import { codexAdapter } from "./codex/index.ts";
import { claudeAdapter } from "./claude/index.ts";
import { opencodeAdapter } from "./opencode/index.ts";
import { grokAdapter } from "./grok/index.ts";
import { geminiAdapter } from "./gemini/index.ts";
import { copilotAdapter } from "./copilot/index.ts";
import { agyAdapter } from "./agy/index.ts";
import { piAdapter } from "./pi/index.ts";
import { acpAdapter } from "./acp/index.ts";
import { CODEX_OPTION_DEFS } from "./codex/options.ts";
import { CLAUDE_OPTION_DEFS } from "./claude/options.ts";

export const adapters = {
  codex: codexAdapter,
  claude: claudeAdapter,
  opencode: opencodeAdapter,
  grok: grokAdapter,
  gemini: geminiAdapter,
  copilot: copilotAdapter,
  agy: agyAdapter,
  pi: piAdapter,
  acp: acpAdapter,
} as const satisfies Record<string, Adapter>;

export type Backend = keyof typeof adapters;

/**
 * Every backend-only config key with its value's schema (arktype definitions), as each backend
 * declares them in its own options.ts. The config schema spreads these into an agent entry; which
 * backend may set which key is each adapter's `options`, checked in config/resolve-agent.ts.
 */
export const AGENT_OPTION_DEFS = { ...CODEX_OPTION_DEFS, ...CLAUDE_OPTION_DEFS } as const;
export const AGENT_OPTION_KEYS: readonly string[] = Object.keys(AGENT_OPTION_DEFS).map((key) => key.replace(/\?$/, ""));

export const BACKENDS = Object.keys(adapters) as readonly Backend[];

/** Backends with a headless CLI of their own to find and probe (`backend: acp` has only its agents' launches). */
export const CLI_BACKENDS = BACKENDS.filter((b) => !adapters[b].acp?.only);

export function isBackend(name: string): name is Backend {
  return Object.hasOwn(adapters, name);
}
