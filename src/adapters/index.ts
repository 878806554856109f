import type { Adapter, Backend } from "./types.ts";
import { codexAdapter } from "./codex.ts";
import { claudeAdapter } from "./claude.ts";
import { opencodeAdapter } from "./opencode.ts";
import { grokAdapter } from "./grok.ts";
import { geminiAdapter } from "./gemini.ts";
import { copilotAdapter } from "./copilot.ts";

/** One adapter per backend. Adapters are pure, so importing them all costs nothing to speak of. */
export const adapters: Record<Backend, Adapter> = {
  codex: codexAdapter,
  claude: claudeAdapter,
  opencode: opencodeAdapter,
  grok: grokAdapter,
  gemini: geminiAdapter,
  copilot: copilotAdapter,
};
