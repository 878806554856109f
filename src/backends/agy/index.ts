/**
 * Google Antigravity CLI (`agy`), headless print mode with `--output-format stream-json`.
 * Built from Google's documentation and third-party captures of agy 1.1.10–1.2.17; agy is a
 * closed Go binary no installer here reaches, so nothing in this folder was checked against a
 * real run. `agy --version` is read first (./version.ts): builds
 * before 1.1.10 are refused, never driven.
 *
 * One run: the prompt on stdin with no -p (docs/backends/agy.md: no argv limit, not in `ps`),
 * stream-json out (./parse.ts), classification from the stream and stderr (./classify.ts).
 */
import { join } from "node:path";
import type { Adapter, AgentEvent, Invocation, ProbeOutput, Readiness, RunRequest } from "../contract.ts";
import { classifyAgy, explainAgy } from "./classify.ts";
import { quotaResetSec } from "./failure-text.ts";
import { agyMachine } from "./machine.ts";
import { parseAgyLine } from "./parse.ts";
import { agyVariant, AGY_MIN_VERSION } from "./version.ts";

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

/** `agy models` is the cheap, quota-free sign-in check: exit 1 "Please sign in…" when out. */
function agyReadiness(out: ProbeOutput): Readiness {
  if (out.exitCode === 0) return "ready";
  return /Please sign in|not logged into Antigravity|authentication required|secret keyring is locked/i.test(`${out.stdout}\n${out.stderr}`)
    ? "not_ready"
    : "unknown";
}

/** Flags orchestrate passes, with the first version known to list them. */
const REQUIRED_FLAGS = [
  { flag: "--output-format", since: "1.1.8" },
  { flag: "--json-schema", since: "1.1.8" },
  { flag: "--disable-slash-commands", since: AGY_MIN_VERSION },
  { flag: "--sandbox", since: "1.0.0" },
  { flag: "--print-timeout", since: "1.0.0" },
  { flag: "--model", since: "1.0.0" },
  { flag: "--conversation", since: "1.0.0" },
  { flag: "--add-dir", since: "1.0.0" },
  { flag: "--log-file", since: "1.0.0" },
];

/**
 * agy retries 502/503/504 and per-minute 429s in-process and says nothing while it does: there
 * is no mid-run signal to read. What stderr does say, at the end, is when an
 * exhausted quota resets — the provider's retry-after, hours away — so the cooldown lasts that long.
 */
function parseAgyStderr(line: string): AgentEvent[] {
  const resetSec = quotaResetSec(line);
  if (resetSec === undefined) return [];
  return [
    { kind: "retry", message: line.trim().slice(0, 200), failure: "capacity", retryAfterSec: resetSec },
    { kind: "quota", window: "individual", state: "exhausted", resetsInSec: resetSec, source: "agy failure text" },
  ];
}

export const agyAdapter: Adapter = {
  backend: "agy",
  provider: { kind: "fixed", provider: "google" },
  ...agyMachine,
  invocation: agyInvocation,
  parse: parseAgyLine,
  parseStderr: parseAgyStderr,
  classify: classifyAgy,
  explain: explainAgy,
  probes: {
    version: ["--version"],
    help: ["--help"],
    requiredFlags: REQUIRED_FLAGS,
    auth: ["models"],
    // There is no login subcommand; sign-in happens in the TUI.
    loginHint: "agy (run it once in a terminal and sign in with your Google account)",
  },
  readiness: agyReadiness,
  // Signed out, a print run can sit ~60 s in an OAuth wait; `agy models` answers in ~1.5 s.
  preflight: true,
  supportsResume: true,
  variant: agyVariant,
};
