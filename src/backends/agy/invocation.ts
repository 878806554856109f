/**
 * argv, stdin and environment for one agy run (docs/backends/agy.md, "How a run is started" and
 * "The child's environment and HOME").
 */
import { join } from "node:path";
import type { Invocation, RunRequest } from "../contract.ts";

/**
 * Unbounded in Go's duration syntax (`2562047h`, docs/backends/agy.md). Used when the request carries no
 * budget, so agy's own 5-minute default (1.1.x) never cuts a run the runner's timer allows.
 */
const NO_PRINT_TIMEOUT = "2562047h";

/**
 * `--print-timeout` as a Go duration. Never `0`: on 1.1.x that times out at once, on 1.2.14 it
 * means "wait forever" (docs/backends/agy.md).
 */
export function agyPrintTimeout(timeoutSec: number | undefined): string {
  if (timeoutSec === undefined || !Number.isFinite(timeoutSec) || timeoutSec <= 0) return NO_PRINT_TIMEOUT;
  return `${Math.max(1, Math.ceil(timeoutSec))}s`;
}

/**
 * The child's environment (docs/backends/agy.md): the background self-updater replaced the binary mid-run
 * and lives outside the process group, and only the literal `true` stops it; the gateway, ADC and
 * endpoint overrides would send prompts or bills elsewhere than the person's own sign-in.
 */
export const AGY_ENV: Readonly<Record<string, string | undefined>> = {
  AGY_CLI_DISABLE_AUTO_UPDATE: "true",
  AGY_GATEWAY_URL: undefined,
  AGY_ADC_AUTH: undefined,
  CLOUD_CODE_URL: undefined,
};

/**
 * route: the repo is the workspace (`--add-dir`; without it tools target agy's app-data scratch
 * dir), where headless auto-allows file reads and writes while shell, web and MCP calls are
 * soft-denied — edits without arbitrary commands, like gemini's auto_edit. Never
 * `--dangerously-skip-permissions`. `--sandbox` puts any command a person's allow-rules let
 * through in the terminal sandbox.
 *
 * answer: no workspace at all (the scratch cwd is not added), and `--json-schema` asks for the
 * envelope as `structured_output`. Any tool step fails the consult (the service's rule on `acts`).
 *
 * The person's HOME is kept in both modes: the login sits in the keyring or, without a D-Bus
 * session, in a file under HOME, and macOS loses it under a foreign HOME; conversations
 * live under HOME too, so a throw-away HOME would also make every follow-up start afresh.
 */
export function agyInvocation(req: RunRequest): Invocation {
  const args = ["--output-format", "stream-json", "--disable-slash-commands", "--sandbox", "--print-timeout", agyPrintTimeout(req.timeoutSec)];
  if (req.model) args.push("--model", req.model);
  if (req.resumeSessionId) args.push("--conversation", req.resumeSessionId);
  if (req.mode === "route") args.push("--add-dir", req.cwd);
  if (req.mode === "answer" && req.outputSchemaPath) args.push("--json-schema", req.outputSchemaPath);
  // The log holds the account e-mail and the default one is shared and overwritten.
  if (req.mode === "answer" && req.isolatedHome) args.push("--log-file", join(req.isolatedHome, "agy.log"));
  return { args, stdin: req.prompt, env: { ...AGY_ENV } };
}
