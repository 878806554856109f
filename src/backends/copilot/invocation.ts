/**
 * argv, stdin and environment for one copilot run (docs/backends/copilot.md, "How a run is
 * started").
 *
 * Isolation choice: COPILOT_HOME is NOT moved to req.isolatedHome. The sign-in (config.json's
 * logged-in user, keychain lookup) and the session-state/ needed by `--resume` both live under
 * COPILOT_HOME, so isolating it would break login and follow-ups. Answer mode instead denies every
 * acting tool (`--deny-tool` rules beat every allow rule, even --allow-all-tools), disables the
 * built-in GitHub MCP servers and drops a COPILOT_ALLOW_ALL inherited from the user's shell.
 */
import type { Invocation, RunRequest } from "../contract.ts";

/** Permission rules for answer mode: `shell` with no argument = every command, `write` = every file tool. */
export const ANSWER_DENY_RULES = ["shell", "write"];

export const COPILOT_USAGE_FILE = "copilot-usage.json";

/**
 * The prompt goes on stdin, never in argv: without -p copilot reads a piped stdin to EOF as the
 * prompt and runs headless (docs/backends/copilot.md, "How a run is started"; checked again on
 * 1.0.102 with a 300 KiB prompt), so there is no 128 KiB argument limit, no prompt in `ps`, and a
 * dash-leading prompt cannot be read as a flag.
 */
export function copilotInvocation(req: RunRequest): Invocation {
  const args = ["--output-format", "json", "--no-auto-update", "--no-ask-user", "--disable-builtin-mcps"];
  if (req.model) args.push("--model", req.model);
  if (req.resumeSessionId) args.push(`--resume=${req.resumeSessionId}`);
  // A delegate must not reach the user's MCP servers (orchestrate itself may be one of them).
  for (const name of req.disableMcpServers ?? []) args.push(`--disable-mcp-server=${name}`);
  if (req.mode === "route") return { args: [...args, "--allow-all-tools"], stdin: req.prompt };
  for (const rule of ANSWER_DENY_RULES) args.push(`--deny-tool=${rule}`);
  const usageFile = copilotUsageFilePath(req);
  if (usageFile) args.push("--usage-output-file", usageFile);
  // A user-level COPILOT_ALLOW_ALL=true would auto-approve tools and trust the cwd's hooks.
  return { args, stdin: req.prompt, env: { COPILOT_ALLOW_ALL: undefined } };
}

/**
 * Where answer mode asks copilot to write its final usage (tokens are not on stdout). The service
 * reads it after the run and folds it with `copilotUsageFromUsageFile`.
 */
export function copilotUsageFilePath(req: Pick<RunRequest, "mode" | "isolatedHome">): string | undefined {
  if (req.mode !== "answer" || !req.isolatedHome) return undefined;
  return `${req.isolatedHome.replace(/\/+$/, "")}/${COPILOT_USAGE_FILE}`;
}
