/** What opencode keeps around a run, as data: its export (the served model), MCP config, history, registration, models. */
import { join } from "node:path";
import type { BackendMachine, Env } from "../contract.ts";
import { asObject as asRecord, parseObject } from "../events.ts";

function configDir(env: Env, home: string): string {
  return join(env.XDG_CONFIG_HOME || join(home, ".config"), "opencode");
}

/** The person's global config files, in the order opencode reads them. */
const GLOBAL_FILES = ["opencode.json", "opencode.jsonc", "config.json"];

/** `opencode models` prints one `provider/model` per line. */
export function opencodeListedModels(stdout: string): string[] {
  return stdout
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l.includes("/") && !l.includes(" "));
}

/** argv that prints a session as JSON on stdout (`Exporting session: …` goes to stderr). */
export function opencodeExportArgv(sessionId: string): string[] {
  return ["export", sessionId];
}

/**
 * The model that actually answered, as `provider/model`, from `opencode export` output: the last
 * assistant message's providerID/modelID, else the session's `info.model`.
 */
export function opencodeModelFromExport(jsonText: string): string | undefined {
  const doc = parseObject(jsonText.slice(Math.max(0, jsonText.indexOf("{"))));
  if (!doc) return undefined;
  const messages = Array.isArray(doc.messages) ? doc.messages : [];
  for (const message of [...messages].reverse()) {
    const info = asRecord(asRecord(message)?.info);
    if (info?.role !== "assistant") continue;
    const id = joinModel(info.providerID, info.modelID);
    if (id) return id;
  }
  const model = asRecord(asRecord(doc.info)?.model);
  return joinModel(model?.providerID, model?.id);
}

function joinModel(provider: unknown, model: unknown): string | undefined {
  return typeof provider === "string" && typeof model === "string" && provider && model ? `${provider}/${model}` : undefined;
}

export const opencodeMachine = {
  // step_finish carries each step's own figures; the model shows in `opencode export` only.
  traits: {
    usage: { tokens: "streamed", cost: "streamed", turns: "none" },
    identity: "side-channel",
    resumedUsage: "per-turn",
    containment: "permission-mode",
  },
  writes: {
    isolatedWrite: false,
    patch: true,
    why: "opencode's route mode keeps the person's config, whose build agent runs bash without approval: nothing confines its writes to the cwd",
  },
  // The global config and the repo's own: a route run loads both.
  mcpConfigFiles: ({ env, home, cwd }) => {
    const global = GLOBAL_FILES.map((f) => join(configDir(env, home), f));
    const repo = cwd
      ? [join(cwd, "opencode.json"), join(cwd, "opencode.jsonc"), join(cwd, ".opencode", "opencode.json"), join(cwd, ".opencode", "opencode.jsonc")]
      : [];
    return [...global, ...repo].map((path) => ({ path, format: "json", key: "mcp" }));
  },
  // Answer mode moves the config home, so the providers the person declared in their own config
  // (a custom endpoint) are carried into the inline config; a route reads them itself.
  providerConfigFiles: ({ env, home, mode }) =>
    mode === "answer"
      ? [...(env.OPENCODE_CONFIG ? [env.OPENCODE_CONFIG] : []), ...GLOBAL_FILES.map((f) => join(configDir(env, home), f))].map((path) => ({
          path,
          format: "json",
          key: "provider",
          holds: "definitions",
        }))
      : [],
  // The stream never names the model; `opencode export` does, from the run's own cwd.
  sideChannel: {
    kind: "command",
    argv: opencodeExportArgv,
    read: (stdout) => {
      const model = opencodeModelFromExport(stdout);
      return model ? { models: [model], requested: true } : undefined;
    },
    // export pretty-prints the whole session; a resumed consultation can be long.
    maxLines: 200_000,
  },
  installDirs: [".opencode/bin"],
  history: "~/.local/share/opencode/opencode.db",
  client: { names: /^opencode/i },
  registration: ({ name, self, env, home }) => ({
    kind: "file",
    file: join(configDir(env, home), "opencode.json"),
    path: ["mcp", name],
    entry: { type: "local", command: self, enabled: true },
  }),
  registrationHelp: (name, self) =>
    `  opencode: add to opencode.json  "mcp": { "${name}": { "type": "local", "command": [${self.map((p) => JSON.stringify(p)).join(", ")}] } }`,
  models: { argv: () => ["models"], read: opencodeListedModels },
  wizard: { modelHint: "<provider>/<model>", validModel: (id) => id.includes("/") },
} satisfies BackendMachine;
