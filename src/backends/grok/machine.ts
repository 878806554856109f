/** What grok keeps around a run, as data: Grok Build's session summary (the served model), history, models. */
import type { BackendMachine } from "../contract.ts";

/** Grok Build lists models indented under a header; the community CLI lists none. */
export function grokListedModels(stdout: string): string[] {
  return stdout
    .split("\n")
    .filter((l) => /^\s+\S+\s*$/.test(l))
    .map((l) => l.trim());
}

export const grokMachine = {
  // The community CLI prints one JSON line per message at the end, no usage; Grok Build streams.
  traits: { usage: { tokens: "none", cost: "none", turns: "none" }, identity: "side-channel", resumedUsage: "per-turn", containment: "none" },
  writes: { isolatedWrite: false, patch: true, why: "grok has no sandbox and route mode approves every tool (--always-approve)" },
  installDirs: [".grok/bin"],
  history: "~/.grok/sessions (Grok Build)",
  client: { names: /^grok/i },
  models: { argv: (variant) => (variant === "official" ? ["models"] : undefined), read: grokListedModels },
} satisfies BackendMachine;
