/** What opencode keeps around a run, as data: its export (the served model), MCP config, history, registration, models. */
import { join } from "node:path";
import type { BackendMachine, Env } from "../contract.ts";

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
