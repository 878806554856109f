/** What grok keeps around a run, as data: Grok Build's session summary (the served model), history, models. */
import type { BackendMachine } from "../contract.ts";
import { parseObject, str } from "../events.ts";

/** Grok Build lists models indented under a header; the community CLI lists none. */
export function grokListedModels(stdout: string): string[] {
  return stdout
    .split("\n")
    .filter((l) => /^\s+\S+\s*$/.test(l))
    .map((l) => l.trim());
}

/** Grok Build keeps `summary.json` (with `model`) per session: ~/.grok/sessions/<urlencoded cwd>/<id>/. */
export function grokBuildSummaryPath(home: string, cwd: string, sessionId: string): string {
  return `${home}/.grok/sessions/${encodeURIComponent(cwd)}/${sessionId}/summary.json`;
}

/** The model a Grok Build session used, from its summary.json text. Pure. */
export function grokModelFromSummary(text: string): string | undefined {
  const doc = parseObject(text);
  return doc ? str(doc.model) : undefined;
}

export const grokMachine = {
  // The community CLI prints one JSON line per message at the end, no usage; Grok Build streams.
  traits: { usage: { tokens: "none", cost: "none", turns: "none" }, identity: "side-channel", resumedUsage: "per-turn", containment: "none" },
  writes: { isolatedWrite: false, patch: true, why: "grok has no sandbox and route mode approves every tool (--always-approve)" },
  // Grok Build records the served model in its session summary; the community CLI has no sessions.
  sideChannel: {
    kind: "file",
    path: (ctx) => (ctx.sessionId ? grokBuildSummaryPath(ctx.home, ctx.request.cwd, ctx.sessionId) : undefined),
    read: (text) => {
      const model = grokModelFromSummary(text);
      return model ? { models: [model] } : undefined;
    },
  },
  installDirs: [".grok/bin"],
  history: "~/.grok/sessions (Grok Build)",
  client: { names: /^grok/i },
  models: { argv: (variant) => (variant === "official" ? ["models"] : undefined), read: grokListedModels },
} satisfies BackendMachine;
