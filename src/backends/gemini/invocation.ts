/**
 * argv, stdin, environment and the private settings home for one gemini run
 * (docs/backends/gemini.md, "How a run is started", "Trust" and "Retries and the private home").
 */
import type { Env, HomeOverlay, Invocation, Json, RunRequest } from "../contract.ts";
import { asObject as asRecord } from "../events.ts";

/**
 * A server name nobody has: with `--allowed-mcp-server-names` set, gemini keeps only the named
 * servers (extensions' included), so this drops every MCP server the person configured.
 */
export const GEMINI_NO_MCP = "orchestrate-no-mcp";

/**
 * Trust for this run only (docs/backends/gemini.md, "Trust"): gemini refuses, exit 55, any folder
 * it was never told to trust — a route's repository as much as a consult's throw-away cwd — and
 * in an untrusted folder it would also drop auto_edit back to the read-only default. The variable
 * (exactly "true") is read before any trust file and nothing is written: the person's
 * trustedFolders.json stays as it was. It also overrides an inherited "false".
 */
export const TRUST_THIS_RUN = { GEMINI_CLI_TRUST_WORKSPACE: "true" } as const;

export function geminiInvocation(req: RunRequest): Invocation {
  // Route: auto_edit is the safest mode that can edit headless — checked against the real 0.61.0
  // request bodies (docs/backends/gemini.md, "How a run is started"): it offers replace, write_file and web_fetch and
  // applies their edits, and offers no run_shell_command, so a delegate cannot run arbitrary
  // commands (yolo would, with no sandbox: --sandbox needs a Docker image). Answer: `default`
  // explicitly, so a settings.json defaultApprovalMode cannot widen it; it offers only reads.
  const approval = req.mode === "answer" ? "default" : "auto_edit";
  const args = ["-o", "stream-json", "--approval-mode", approval, "--allowed-mcp-server-names", GEMINI_NO_MCP];
  if (req.mode === "answer") args.push("-e", "none");
  if (req.model) args.push("-m", req.model);
  if (req.resumeSessionId) args.push("--resume", req.resumeSessionId);
  // The prompt goes on stdin (headless when stdin is not a TTY): no argv length limit, no
  // dash-prefixed prompt read as a flag. Sign-in stays in ~/.gemini, so the home is not isolated.
  return { args, stdin: req.prompt, env: { ...TRUST_THIS_RUN } };
}

/**
 * gemini retries a 429/503 ten times over ~4 minutes by default, and the only cap is
 * `general.maxAttempts` in its settings file — no flag, no variable (docs/backends/gemini.md, verified: 1
 * request and the `result` ~0.4 s later with 1; 2 requests 4.4 s apart with 2). The person's
 * ~/.gemini/settings.json is never edited: each run gets a private GEMINI_CLI_HOME whose .gemini
 * links every entry of the person's own (sign-in, sessions, trust, extensions) and whose
 * settings.json is theirs with the cap. One attempt: gemini's own backoff before a second one is
 * a fixed 5 s ±30 %, longer than starting gemini again (~2.5 s), so a transient failure is retried
 * by the runner re-running the agent once (traits.capacityRerun, machine.ts) — answered sooner —
 * and a persistent one falls back right after that re-run fails. A cap of the person's own is kept.
 */
export const GEMINI_MAX_ATTEMPTS = 1;

export function geminiHomeOverlay(ctx: { env: Env; home: string }): HomeOverlay {
  return {
    envVar: "GEMINI_CLI_HOME",
    root: ctx.env.GEMINI_CLI_HOME || ctx.home,
    // .agents holds the person's user-level skills, read from beside .gemini.
    entries: [".gemini", ".agents"],
    settings: { ".gemini/settings.json": capAttempts },
    // Where gemini keeps sessions and history: created first so they are linked, not copied.
    keep: [".gemini/tmp", ".gemini/history"],
  };
}

export function capAttempts(settings: Json): Json {
  const general = asRecord(settings.general) ?? {};
  const own = typeof general.maxAttempts === "number" ? general.maxAttempts : undefined;
  return { ...settings, general: { ...general, maxAttempts: own !== undefined && own < GEMINI_MAX_ATTEMPTS ? own : GEMINI_MAX_ATTEMPTS } };
}
