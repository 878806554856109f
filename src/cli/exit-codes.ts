/**
 * What `orchestrate run`, `consult` and `smoke` exit with, so a script or an agent skill can branch
 * without reading the text: the answer is on stdout only when the exit is 0.
 */
import type { ErrorCode } from "../errors.ts";
import { stderr } from "../safety/egress.ts";

export const EXIT = {
  /** Answered: the answer is on stdout. */
  ok: 0,
  /** An agent was tried and failed: signed out, rate-limited, a provider error, a timeout, bad output, an edited tree, … */
  failed: 1,
  /** The call itself was wrong: flags, config, cwd, or the store. Fix and rerun. */
  usage: 2,
  /** Nothing was tried: no configured or eligible agent, or every one cooling or skipped by a rule. Retry later or configure another. */
  unavailable: 3,
  /** Interrupted (Ctrl-C, SIGTERM). */
  cancelled: 130,
} as const;

const USAGE: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  "invalid_arguments",
  "invalid_timeout",
  "limit_unenforceable",
  "config_absent",
  "config_invalid",
  "config_insecure",
  "store_unavailable",
  "store_too_new",
  "store_foreign",
  "store_corrupt",
  "cwd_invalid",
  "cwd_outside_roots",
  "recursion_limit",
  "host_unknown",
  "host_mismatch",
  "unknown_agent",
  "unknown_consultation",
  "session_target_mismatch",
  "prompt_too_large",
]);

/**
 * Codes that mean no agent was tried. An attempt's own unavailable class (route's "unavailable",
 * consult's auth_required, rate_limited, …) is exit 1: an agent was tried, and stderr says why.
 */
const UNAVAILABLE: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  "tier_unconfigured",
  "no_candidates",
  "no_eligible_agent",
  "agent_not_eligible",
  "resume_unsupported",
]);

export function exitCodeFor(code: ErrorCode | undefined): number {
  if (code === undefined) return EXIT.failed;
  if (code === "cancelled") return EXIT.cancelled;
  if (USAGE.has(code)) return EXIT.usage;
  if (UNAVAILABLE.has(code)) return EXIT.unavailable;
  return EXIT.failed;
}

/** For the commands' --help: the same table in words. */
export const EXIT_HELP =
  "Exit: 0 answered (stdout) · 1 an agent was tried and failed · 2 bad flags/config/cwd · 3 nothing was tried (no agent available) · 130 interrupted.";

/** Says why on stderr (through the egress scrubber) and ends the command with its documented code. */
export function exitWith(message: string, code: number = EXIT.failed): never {
  stderr.write(`${message}\n`);
  return endCommand(code);
}

/**
 * Thrown instead of exiting while the commands run inside a test's own process
 * (fakes/lib/cli-in-process.ts): it ends the command where the process would have exited, and
 * runCli (src/cli/index.ts) lets it through untouched.
 */
export class CommandEnded extends Error {
  constructor(readonly code: number) {
    super(`the command ended with exit code ${code}`);
    this.name = "CommandEnded";
  }
}

let endsByThrowing = false;

/** The one way a command ends: the process exits with `code` (see CommandEnded for the exception). */
export function endCommand(code: number): never {
  if (endsByThrowing) throw new CommandEnded(code);
  process.exit(code);
}

/** While on, endCommand throws CommandEnded instead of exiting: only fakes/lib/cli-in-process.ts turns it on. */
export function endCommandsByThrowing(on: boolean): void {
  endsByThrowing = on;
}

/** A refusal's message with its hint on the next line; `words` rewrites the hint for a shell (shell-hints.ts). */
export function failureLines(error: { message: string; hint?: string | undefined }, words: (hint: string) => string = (hint) => hint): string {
  return `${error.message}${error.hint ? `\n${words(error.hint)}` : ""}`;
}
