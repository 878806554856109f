/**
 * A contained test step's TestReport, built from what the CLI's own event stream says ran — the
 * commands it reported and the exit codes it read — never from the model's prose, which is kept
 * beside the report as what the agent claimed. reported_by "orchestrator" has this one source.
 */
import type { AgentEvent } from "../../backends/events.ts";
import type { TestReport } from "./order.ts";

export interface ObservedCommand {
  command: string;
  /** null: the stream reported the command but no exit code (denied, killed, or never finished). */
  exit_code: number | null;
}

export interface ObservedRun {
  events: readonly AgentEvent[];
  claim: string;
  cwd: string;
  commit: string;
  durationMs: number;
  changedFiles: string[];
}

const MAX_CLAIM = 16 * 1024;

/** Each started command paired with the exit code its end event carried, in order. */
export function observedCommands(events: readonly AgentEvent[]): ObservedCommand[] {
  const out: ObservedCommand[] = [];
  const open: ObservedCommand[] = [];
  for (const e of events) {
    if (e.kind !== "tool" || !e.acts) continue;
    if (e.phase === "start") {
      const cmd = { command: e.detail ?? e.name, exit_code: null };
      open.push(cmd);
      out.push(cmd);
      continue;
    }
    const started = open.findIndex((c) => c.command === (e.detail ?? e.name));
    const cmd = started >= 0 ? open.splice(started, 1)[0] : undefined;
    if (cmd && e.exitCode !== undefined) cmd.exit_code = e.exitCode;
  }
  return out;
}

/**
 * pass only when at least one command was observed and every one returned zero; a command whose
 * exit code was never read counts against it, the rule a host's report is held to.
 */
export function observedReport(run: ObservedRun): TestReport {
  const commands = observedCommands(run.events);
  const failed = commands.find((c) => c.exit_code !== 0);
  const status = commands.length > 0 && !failed ? "pass" : "fail";
  return {
    command: commands.map((c) => c.command).join("\n") || "(no command was observed)",
    cwd: run.cwd,
    exit_code: commands.length === 0 ? null : failed ? failed.exit_code : 0,
    status,
    output: commands.map((c) => `${c.exit_code ?? "?"}\t${c.command}`).join("\n"),
    duration_ms: run.durationMs,
    commit: run.commit,
    reported_by: "orchestrator",
    provenance:
      "orchestrator-observed: commands and exit codes from the CLI's own event stream in an isolated worktree; a command the CLI did not report (codex omits sandbox-denied ones) is not in it, so this is not a claim that the whole suite ran",
    observed: commands,
    claimed: run.claim.length > MAX_CLAIM ? run.claim.slice(0, MAX_CLAIM) : run.claim,
    changed_files: run.changedFiles,
  };
}
