/**
 * argv, stdin and environment for one opencode run (docs/backends/opencode.md, "How a run is
 * started"): route mode keeps the person's config with their MCP servers switched off by name,
 * answer mode passes a config of its own inline.
 */
import type { Invocation, Json, RunRequest } from "../contract.ts";

/**
 * Answer mode's config, passed inline (OPENCODE_CONFIG_CONTENT; docs/backends/opencode.md, "How a run
 * is started"): every
 * tool denied except the read-only ones, no MCP servers, no plugins. `small_model` follows the
 * model so the title call does not go to a provider the person never chose. With web granted
 * (RunRequest.web) its two web tools are allowed too, and nothing else that acts. The config home
 * is isolated, so the providers the person declared in their own config come along (`providers`):
 * without them a custom provider's model is "not found" (headless) or refused -32602 (ACP).
 */
export function opencodeAnswerConfig(model: string | undefined, web = false, providers?: Json): string {
  const webPermission = web ? "allow" : "deny";
  const permission = {
    "*": "deny",
    read: "allow",
    grep: "allow",
    glob: "allow",
    list: "allow",
    edit: "deny",
    bash: "deny",
    webfetch: webPermission,
    websearch: webPermission,
    task: "deny",
    external_directory: "deny",
  };
  return JSON.stringify({
    $schema: "https://opencode.ai/config.json",
    permission,
    mcp: {},
    plugin: [],
    autoupdate: false,
    share: "disabled",
    ...(providers ? { provider: providers } : {}),
    ...(model ? { model, small_model: model } : {}),
  });
}

export function opencodeInvocation(req: RunRequest): Invocation {
  // --print-logs puts the real cause of `UnknownError` lines (e.g. ProviderModelNotFoundError) on
  // stderr, where classify and the person can see it.
  const args = ["run", "--format", "json", "--print-logs", "--log-level", "ERROR", "--dir", req.cwd];
  if (req.mode === "answer") args.push("--pure");
  if (req.model) args.push("-m", req.model);
  if (req.resumeSessionId) args.push("-s", req.resumeSessionId);
  // The prompt goes on stdin (then closed): positional words that contain spaces reach the model
  // wrapped in quotes, and a dash-prefixed prompt would parse as a flag.
  if (req.mode === "route") return { args, stdin: req.prompt, ...routeEnv(req) };
  return { args, stdin: req.prompt, env: answerEnv(req) };
}

/**
 * Route mode keeps the person's config but switches their MCP servers off by name: an inline config
 * of `{ "mcp": { name: { "enabled": false } } }` merges over theirs and keeps their providers
 * (checked against opencode 1.18.33).
 */
export function routeEnv(req: RunRequest): Pick<Invocation, "env"> {
  const names = req.disableMcpServers ?? [];
  if (names.length === 0) return {};
  const mcp = Object.fromEntries(names.map((name) => [name, { enabled: false }]));
  return { env: { OPENCODE_CONFIG_CONTENT: JSON.stringify({ mcp }) } };
}

/**
 * Route mode keeps the person's own config (providers, credentials, agents): the default `build`
 * agent edits and runs bash, and without `--auto` every permission that would *ask* (e.g. paths
 * outside the project) is rejected. Answer mode isolates the config home instead.
 */
export function answerEnv(req: RunRequest): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {
    OPENCODE_CONFIG_CONTENT: opencodeAnswerConfig(req.model, req.web === true, req.providerDefinitions),
    OPENCODE_DISABLE_PROJECT_CONFIG: "true",
    OPENCODE_CONFIG: undefined,
    OPENCODE_CONFIG_DIR: undefined,
    OPENCODE_PERMISSION: undefined,
  };
  // Credentials live under XDG_DATA_HOME (auth.json), so moving the config home keeps sign-in.
  if (req.isolatedHome) env.XDG_CONFIG_HOME = req.isolatedHome;
  return env;
}
