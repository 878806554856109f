/** What copilot keeps around a run, as data: its usage file, MCP config, history and registration. */
import { join } from "node:path";
import type { BackendMachine, Env, Usage } from "../contract.ts";
import { asObject, parseObject, type Json } from "../events.ts";
import { copilotUsageFilePath } from "./invocation.ts";
import { num } from "./parse.ts";

/** $COPILOT_HOME, else ~/.copilot. */
export function copilotHome(env: Env, home: string): string {
  return env.COPILOT_HOME ?? join(home, ".copilot");
}

/** Session directory of a run: `$COPILOT_HOME/session-state/<id>/` (COPILOT_HOME defaults to ~/.copilot). */
export function copilotSessionDir(env: { COPILOT_HOME?: string; HOME?: string }, sessionId: string): string {
  const home = env.COPILOT_HOME ?? `${env.HOME ?? ""}/.copilot`;
  return `${home}/session-state/${sessionId}`;
}

/** Tokens and model from a `--usage-output-file` JSON (modelMetrics keyed by model). Pure. */
export function copilotUsageFromUsageFile(text: string): { usage: Usage; models: string[] } | undefined {
  const doc = parseObject(text);
  const metrics = doc && asObject(doc.modelMetrics);
  if (!metrics) return undefined;
  const usage: Usage = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 };
  for (const entry of Object.values(metrics)) addModelUsage(usage, asObject(entry));
  const models = Object.keys(metrics);
  const current = typeof doc.currentModel === "string" ? [doc.currentModel] : [];
  return { usage, models: [...new Set([...current, ...models])] };
}

function addModelUsage(total: Usage, entry: Json | undefined): void {
  const usage = entry && asObject(entry.usage);
  if (!usage) return;
  total.inputTokens = (total.inputTokens ?? 0) + num(usage.inputTokens);
  total.outputTokens = (total.outputTokens ?? 0) + num(usage.outputTokens);
  total.cachedInputTokens = (total.cachedInputTokens ?? 0) + num(usage.cacheReadTokens);
}

export const copilotMachine = {
  // Tokens only in the usage file written at the end (answer mode); nothing streamed.
  traits: { usage: { tokens: "none", cost: "none", turns: "none" }, identity: "side-channel", resumedUsage: "per-turn", containment: "permission-mode" },
  writes: { isolatedWrite: false, patch: true, why: "copilot's route mode runs with --allow-all-tools: nothing confines its writes to the cwd" },
  // Answer mode asks copilot for a usage file: the only place its tokens and model are written.
  sideChannel: { kind: "file", path: (ctx) => copilotUsageFilePath(ctx.request), read: copilotUsageFromUsageFile },
  // copilot loads every server of its mcp-config.json into a run; --disable-mcp-server takes names.
  mcpConfigFiles: ({ env, home }) => [{ path: join(copilotHome(env, home), "mcp-config.json"), format: "json", key: "mcpServers" }],
  installDirs: [],
  history: "~/.copilot/session-state ($COPILOT_HOME)",
  client: { names: /^(github[- ])?copilot/i, requestTimeoutSec: 60 },
  registration: ({ name, self, env, home }) => {
    const [command = "", ...args] = self;
    return {
      kind: "file",
      file: join(copilotHome(env, home), "mcp-config.json"),
      path: ["mcpServers", name],
      entry: { type: "local", command, args, tools: ["*"] },
    };
  },
  registrationHelp: (name, self) =>
    `  copilot: add to ~/.copilot/mcp-config.json  "mcpServers": { "${name}": { "type": "local", "command": ${JSON.stringify(self[0])}, "args": ${JSON.stringify(self.slice(1))}, "tools": ["*"] } }`,
} satisfies BackendMachine;
