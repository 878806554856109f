/**
 * Grok adapter for the two programs that answer to `grok` (docs/backends/grok.md):
 *  - community `@vibe-kit/grok-cli` 0.0.34 (prints 1.0.1): `grok -p PROMPT -d DIR [-m MODEL]`, no
 *    output flag; after the whole run it prints one OpenAI-style message per line
 *    (`{"role":"user"|"assistant"|"tool",…}`), exits 0 even on API errors
 *    (`Sorry, I encountered an error: Grok API error: <status> <msg>`), no sessions, no model, no usage,
 *    auto-approves every tool in headless mode (there is no flag to turn tools off).
 *  - xAI's official Grok Build CLI, from its docs only (not runnable here): `-p`, `--output-format
 *    streaming-json` (`thought` / `text` chunks / `error` / terminal `end` with sessionId),
 *    `--resume`, `--always-approve`, `--cwd`, `--no-auto-update`.
 * Never passes `-k/-u`: the community CLI would persist them to ~/.grok/user-settings.json and echo
 * on stdout, and argv is visible to every local user.
 */
import type { Adapter } from "../contract.ts";
import { classifyGrok } from "./classify.ts";
import { grokInvocation, grokStateFiles } from "./invocation.ts";
import { grokMachine } from "./machine.ts";
import { parseGrokLine } from "./parse.ts";
import { grokProbesFor, grokVariant } from "./probes.ts";

export const grokAdapter: Adapter = {
  backend: "grok",
  provider: { kind: "fixed", provider: "xai" },
  ...grokMachine,
  invocation: grokInvocation,
  // Neither program reads a prompt from stdin or a file orchestrate can rely on (community 0.0.34:
  // commander's -p only, stdin never read; Grok Build's `--prompt-file` is seen only in
  // third-party adapters; docs/backends/grok.md), so the prompt is one argument:
  // over Linux's 128 KiB per argument the transport refuses it as prompt_too_large, unspawned.
  promptOnArgv: true,
  stateFiles: grokStateFiles,
  variant: grokVariant,
  parse: parseGrokLine,
  classify: classifyGrok,
  probes: grokProbesFor("community"),
  // Community (the default variant) has no sessions; use grokSupportsResume(variant) when known.
  supportsResume: false,
};
