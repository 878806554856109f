/** argv and stdin for one `codex exec --json` run (docs/backends/codex.md, "How a run is started"). */
import type { Invocation, RunRequest } from "../contract.ts";
import { codexSandbox, type CodexSandbox } from "./options.ts";

/** Built from the options `codex exec --help` lists (docs/backends/codex.md, "How a run is started"). */
export function codexInvocation(req: RunRequest): Invocation {
  const answer = req.mode === "answer";
  const sandbox: CodexSandbox = answer ? "read-only" : (codexSandbox(req.options) ?? "workspace-write");
  const args = ["exec", "--json"];
  // Answer mode runs in a scratch dir that is not a git repo; route mode keeps codex's own guard
  // (it refuses a non-git cwd, where nothing could undo its edits).
  if (answer) args.push("--skip-git-repo-check", "--ignore-user-config", "--ignore-rules");
  if (req.resumeSessionId) {
    // `exec resume` accepts neither --sandbox nor --cd; the config key works everywhere, and the
    // spawn cwd already is req.cwd.
    args.push("-c", `sandbox_mode="${sandbox}"`);
  } else {
    args.push("-C", req.cwd, "-s", sandbox);
  }
  if (req.model) args.push("-m", req.model);
  if (answer) args.push(...ANSWER_ONLY_KEYS, "-c", `web_search="${req.web ? "live" : "disabled"}"`);
  // Route mode keeps the person's config (providers, auth); their MCP servers are switched off one
  // by one — `-c mcp_servers={}` does not (it merges); `.enabled=false` does (checked on 0.171.0).
  if (!answer) for (const name of req.disableMcpServers ?? []) args.push("-c", `mcp_servers.${name}.enabled=false`);
  if (!answer) args.push(...retryCaps(req.configuredProvider));
  if (answer && req.outputSchemaPath) args.push("--output-schema", req.outputSchemaPath);
  if (req.resumeSessionId) args.push("resume", req.resumeSessionId);
  // The prompt goes on stdin, which is then closed: `-` reads it from there, for exec and for
  // `exec resume` alike (their help). In argv a prompt over the kernel's 128 KiB per-argument
  // limit fails the spawn (E2BIG), and argv is visible to every local user in `ps`.
  args.push("-");
  return { args, stdin: req.prompt };
}

/**
 * Answer mode offers the model no tool that can run anything, so no command runs at all (not one
 * that runs and then fails the turn): approvals never asked (a headless run cannot answer them),
 * the shell tools off (`shell_tool`, and `unified_exec`, which offers exec_command/write_stdin),
 * subagents off (`multi_agent`, `multi_agent_v2`). Config keys, not flags: `exec resume` takes
 * neither --ask-for-approval nor --sandbox. Checked on 0.171.0 by the consult row of
 * scripts/smoke/real-clis.sh, which records the tools each request offered the model.
 */
export const ANSWER_ONLY_KEYS: readonly string[] = [
  "-c",
  `approval_policy="never"`,
  "-c",
  "features.shell_tool=false",
  "-c",
  "features.unified_exec=false",
  "-c",
  "features.multi_agent=false",
  "-c",
  "features.multi_agent_v2=false",
];

/** Provider ids codex reserves: `-c model_providers.openai.…` is a fatal config error (docs/backends/codex.md). */
const BUILT_IN_PROVIDERS = new Set(["openai", "ollama", "lmstudio", "oss"]);

/**
 * codex's own retry caps, which exist only as keys of a custom provider (the built-in `openai`
 * refuses them). By default a 503 is retried 4× silently by the HTTP layer and then 5× per stream
 * attempt (30 requests, 25 s) and a 429 5× (docs/backends/codex.md, "Retries and their caps"). With
 * `request_max_retries=0` the first failure is announced at once (`Reconnecting... 1/1`, 0.42 s
 * instead of 3.45 s); `stream_max_retries=1` keeps one retry, so a single transient 429/503 still
 * recovers, and a persistent one ends with codex's own `turn.failed` after two requests.
 */
export function retryCaps(provider: string | undefined): string[] {
  if (!provider || BUILT_IN_PROVIDERS.has(provider) || !/^[A-Za-z0-9_-]{1,64}$/.test(provider)) return [];
  return ["-c", `model_providers.${provider}.request_max_retries=0`, "-c", `model_providers.${provider}.stream_max_retries=1`];
}
