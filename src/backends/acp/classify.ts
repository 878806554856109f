/**
 * How an ACP run ended, read from its records' events. The prompt's answer decides, not the
 * process: the transport ends every agent's group itself once the turn is over (two of them never
 * exit on a closed stdin), so an exit code or signal after an answer says nothing.
 */
import type { AcpProfile, AgentEvent, ExitOutcome, FailureClass } from "../contract.ts";
import { failureText } from "./failure.ts";

type Final = Extract<AgentEvent, { kind: "final" }>;

export function acpClassifier(profile: AcpProfile | undefined): (outcome: ExitOutcome) => FailureClass | undefined {
  return (outcome) => classifyAcp(outcome, profile);
}

function classifyAcp(outcome: ExitOutcome, profile: AcpProfile | undefined): FailureClass | undefined {
  const { events } = outcome;
  const error = events.find((e): e is Extract<AgentEvent, { kind: "error" }> => e.kind === "error");
  if (error) return error.failure ?? (started(events) ? "task_failed" : "not_installed");
  const final = events.findLast((e): e is Final => e.kind === "final");
  if (!final) return started(events) ? (failureText(outcome.stderrTail, profile?.failures) ?? "task_failed") : "not_installed";
  if (!final.ok) return "task_failed";
  const last = lastText(events);
  // copilot's API failure is an end_turn whose last message is the error.
  if (last && profile?.failedTurnText?.test(last)) return failureText(last, profile.failures) ?? "task_failed";
  return last.trim() ? undefined : "empty_answer";
}

/** An agent that never answered `initialize` is not an ACP agent that could run: nothing started. */
function started(events: readonly AgentEvent[]): boolean {
  return events.some((e) => e.kind === "session");
}

/** The last message: consecutive chunks joined, as the fold joins them. */
function lastText(events: readonly AgentEvent[]): string {
  const chunks: string[] = [];
  for (const event of events) {
    if (event.kind === "text") chunks.push(event.text);
    else if (event.kind === "tool") chunks.length = 0;
  }
  return chunks.join("");
}

/** What the class alone does not say: the agent's own sign-in command, the model it refused. */
export function explainAcp(outcome: ExitOutcome): string | undefined {
  const messages = outcome.events.flatMap((e) => (e.kind === "error" ? [e.message] : []));
  const login = messages.map((m) => /\(sign in: run `([^`]+)`\)/.exec(m)?.[1]).find(Boolean);
  if (login) return `not signed in: run \`${login}\` in a terminal`;
  const model = messages.find((m) => m.startsWith("model: "));
  if (model) return `the agent refused the configured model (${model.slice(7, 500)}); fix the agent's model: in the config`;
  if (!outcome.events.some((e) => e.kind === "session") && messages.some((m) => m.startsWith("initialize: ")))
    return "it did not answer ACP's initialize: check the agent's command (it must start the agent in its ACP mode)";
  return undefined;
}
