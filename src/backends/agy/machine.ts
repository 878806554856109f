/**
 * What agy keeps around a run, as data the services act on (docs/backends/agy.md): where
 * its installer puts it, where it keeps conversations, how it is registered as an MCP client, how
 * it lists models. Pure: paths are computed, never read, here.
 */
import { join } from "node:path";
import type { BackendMachine, AgentFacts } from "../contract.ts";

/** `agy models` prints `slug<TAB>label` lines (1.1.18 and 1.2.14). */
export function agyModelsFrom(stdout: string): string[] {
  return stdout
    .split("\n")
    .map((line) => line.split("\t")[0]?.trim() ?? "")
    .filter((slug) => /^[a-z0-9][\w.-]*$/i.test(slug));
}

/**
 * Gemini slugs carry their effort (`gemini-3.8-flash-high`); a bare base name is refused
 * (1.2.11). Third-party slugs (`claude-sonnet-4-6`) have no suffix.
 */
export function agyValidModel(id: string): boolean {
  if (!/^[a-z0-9][\w.-]*$/i.test(id)) return false;
  return !id.startsWith("gemini-") || /-(high|medium|low)$/.test(id);
}

export const agyMachine = {
  // No flag or env var points agy at other settings, MCP or hook files (docs/backends/agy.md).
  risks: (agent: AgentFacts) => [
    {
      code: "agy_user_config",
      message: `${agent.id}: agy loads your own MCP servers, hooks, rules and plugins (~/.gemini/config, ~/.gemini/antigravity-cli) into every delegated run and has no switch to leave them out; headless mode soft-denies shell and MCP calls, and an answer-only consult fails on any tool step`,
    },
  ],
  // Usage rides on every DONE step; the model shows only as an echo of --model;
  // summed step usage is per run even on a resumed conversation; shell and MCP calls are
  // soft-denied headless and file tools stay in the workspace.
  traits: { usage: { tokens: "streamed", cost: "none", turns: "none" }, identity: "none", resumedUsage: "per-turn", containment: "permission-mode" },
  writes: { isolatedWrite: false, patch: true, why: "agy's allow-rules are the person's own settings: orchestrate cannot prove its writes stay in the cwd" },
  // The installer writes ~/.local/bin/agy.
  installDirs: [".local/bin"],
  history: "~/.gemini/antigravity-cli (conversations/<id>.db, brain/<id>/ transcripts, cache/last_conversations.json)",
  // agy's clientInfo name is not captured [INF]; it abandons a tool call after ~180 s (#780).
  client: { names: /^(antigravity|agy)\b/i, requestTimeoutSec: 180 },
  // The global MCP file (docs/backends/agy.md): stdio servers take command/args/env. The
  // runtime is named in env because agy's clientInfo name is unknown.
  registration: ({ name, self, home }) => {
    const [command = "", ...args] = self;
    return {
      kind: "file",
      file: join(home, ".gemini", "config", "mcp_config.json"),
      path: ["mcpServers", name],
      entry: { command, args, env: { ORCHESTRATE_HOST_RUNTIME: "agy" } },
    };
  },
  registrationHelp: (name, self) =>
    `  add "${name}": {"command": "${self[0] ?? ""}", "args": ${JSON.stringify(self.slice(1))}} under mcpServers in ~/.gemini/config/mcp_config.json`,
  models: { argv: () => ["models"], read: agyModelsFrom },
  wizard: { modelHint: "a slug `agy models` lists, with its effort suffix (e.g. gemini-3.8-flash-high); empty for agy's default", validModel: agyValidModel },
} satisfies BackendMachine;
