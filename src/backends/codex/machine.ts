/**
 * What codex keeps around a run, as data the services act on: its rollout (the only place the
 * model is recorded), its MCP config, its history, its registration, its model catalog, and the
 * settings the wizard asks about. Pure: paths are computed, never read, here.
 */
import { join } from "node:path";
import type { BackendMachine, AgentFacts, Env } from "../contract.ts";
import { codexSandbox } from "./options.ts";
import { asObject, parseObject } from "../events.ts";

/** Where codex keeps its state: $CODEX_HOME, else ~/.codex. */
export function codexHomeFor(env: Env, homeDir: string): string {
  return env.CODEX_HOME || join(homeDir, ".codex");
}

/** `$CODEX_HOME/sessions/YYYY/MM/DD` for the local date the session started on. */
export function codexRolloutDirFor(codexHome: string, date: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return join(codexHome, "sessions", String(date.getFullYear()), pad(date.getMonth() + 1), pad(date.getDate()));
}

/** True for `rollout-<local-ISO-time>-<threadId>.jsonl`. A resumed thread appends to its original file. */
export function isCodexRolloutFor(fileName: string, threadId: string): boolean {
  return fileName.startsWith("rollout-") && fileName.endsWith(`-${threadId}.jsonl`);
}

/**
 * The model of the latest turn in a rollout: `turn_context.payload.model`, falling back to the
 * `thread_settings_applied` event. Undefined when the text holds neither.
 */
export function codexModelFromRollout(text: string): string | undefined {
  let fromTurn: string | undefined;
  let fromSettings: string | undefined;
  for (const line of text.split("\n")) {
    const obj = parseObject(line);
    const payload = asObject(obj?.payload);
    if (!obj || !payload) continue;
    if (obj.type === "turn_context" && typeof payload.model === "string") fromTurn = payload.model;
    const settings = asObject(payload.thread_settings);
    if (payload.type === "thread_settings_applied" && typeof settings?.model === "string") fromSettings = settings.model;
  }
  return fromTurn ?? fromSettings;
}

/** `codex debug models` prints its catalog as JSON; hidden entries are not offered. */
export function codexCatalog(stdout: string): string[] {
  try {
    const parsed = JSON.parse(stdout) as { models?: { slug?: unknown; visibility?: unknown }[] };
    return (parsed.models ?? []).filter((m) => m.visibility !== "hide" && typeof m.slug === "string").map((m) => m.slug as string);
  } catch {
    return [];
  }
}

export const codexMachine = {
  options: { sandbox: "claude has permissionMode; other backends have no such switch" },
  advisoryHint: (agent: AgentFacts) => `Advisory entry "${agent.id}": use the Codex MCP server directly for this task (codex mcp-server). Nothing was sent.`,
  risks: (agent) =>
    codexSandbox(agent.options) === "danger-full-access"
      ? [
          {
            code: "danger_full_access",
            message: `${agent.id}: codex sandbox danger-full-access removes the OS sandbox entirely — an untrusted prompt runs as you`,
          },
        ]
      : [],
  // Usage arrives once, in turn.completed; the model only in the rollout.
  traits: { usage: { tokens: "final", cost: "none", turns: "none" }, identity: "side-channel", resumedUsage: "cumulative", containment: "os-sandbox" },
  writes: {
    isolatedWrite: true,
    patch: true,
    why: "codex runs route steps in its OS sandbox (workspace-write): writes outside the cwd and the worktree's git directory are denied",
  },
  sideChannel: {
    kind: "file-search",
    root: (ctx) => join(codexHomeFor(ctx.env, ctx.home), "sessions"),
    matches: isCodexRolloutFor,
    read: (text) => {
      const model = codexModelFromRollout(text);
      return model ? { models: [model], requested: true } : undefined;
    },
  },
  // [mcp_servers.NAME] of the home config and the repo's .codex/; `-c` takes bare keys only.
  mcpConfigFiles: ({ env, home, cwd }) =>
    [codexHomeFor(env, home), ...(cwd ? [join(cwd, ".codex")] : [])].map((dir) => ({
      path: join(dir, "config.toml"),
      format: "toml",
      key: "mcp_servers",
      names: /^[A-Za-z0-9_-]{1,128}$/,
    })),
  // `model_provider` names the provider whose retry caps a route run sets; the repo's own
  // .codex/config.toml overrides the home one. Answer mode ignores the user config altogether.
  providerConfigFiles: ({ env, home, cwd, mode }) =>
    mode === "answer"
      ? []
      : [...(cwd ? [join(cwd, ".codex")] : []), codexHomeFor(env, home)].map((dir) => ({
          path: join(dir, "config.toml"),
          format: "toml",
          key: "model_provider",
        })),
  installDirs: [".codex/bin"],
  history: "~/.codex/sessions ($CODEX_HOME)",
  client: { names: /^codex/i, requestTimeoutSec: 60 },
  registration: ({ name, self }) => ({ kind: "command", args: ["mcp", "add", name, "--", ...self] }),
  registrationHelp: (name, self) => `  codex mcp add ${name} -- ${self.join(" ")}`,
  models: { argv: () => ["debug", "models"], read: codexCatalog },
  wizard: {
    modelHint: "a model id your CLI accepts",
    questions: [
      {
        key: "sandbox",
        title: "codex sandbox",
        choices: [
          { value: "workspace-write", label: "workspace-write", hint: "edits the repo, OS-sandboxed (default)" },
          { value: "read-only", label: "read-only", hint: "cannot write files" },
          { value: "danger-full-access", label: "danger-full-access", hint: "⚠ no OS sandbox at all" },
        ],
      },
    ],
  },
} satisfies BackendMachine;
