/**
 * The services word their hints for model clients, naming MCP tools and arguments (errors.ts,
 * services/*). A person at a shell needs the shell's names for the same things, so every hint and
 * message `run`, `consult`, `review` and `agents` print passes through here. The table names only
 * commands that exist (src/cli/root.ts): `orchestrate agents`, `run --dry-run`, `review --retry`.
 */
import { closestKey } from "../config/format-errors.ts";

const SHELL_NAMES: [RegExp, string][] = [
  [/`?router_dry_run`?/g, "`orchestrate run --dry-run --tier T`"],
  [/`?review_retry`?/g, "`orchestrate review --retry REVIEW_ID`"],
  [/`?list_agents`?/g, "`orchestrate agents`"],
  [/`?list_tiers`?/g, "`orchestrate check`"],
  [/`?review_get`?/g, "`orchestrate history show REVIEW_ID`"],
  [/`?review_list`?/g, "`orchestrate history list`"],
  [/\bwithout consultation_id\b/g, "without --consultation-id"],
  [/`?consultation_id`?/g, "--consultation-id"],
  [/\bagent:(?=[\s.,)]|$)/g, "--agent"],
  [/\btimeoutSec\b/g, "--timeout"],
  [/, or use background: true and job_wait for long tasks/g, ""],
];

export function shellWords(text: string): string {
  return SHELL_NAMES.reduce((out, [pattern, name]) => out.replace(pattern, name), text);
}

/** host_unknown from a shell: the flag that fixes it comes first. */
export function shellHint(code: string | undefined, hint: string | undefined): string | undefined {
  if (code === "host_unknown")
    return `Pass --host RUNTIME (the CLI you are calling from), or set ORCHESTRATE_HOST_RUNTIME.${hint ? ` ${shellWords(hint)}` : ""}`;
  return hint === undefined ? undefined : shellWords(hint);
}

/** "--tier heavey: did you mean heavy?" — the nearest valid value, if one is close enough. */
export function didYouMean(value: string, known: readonly string[]): string {
  const guess = closestKey(value, known);
  return guess && guess !== value ? ` Did you mean ${guess}?` : "";
}
