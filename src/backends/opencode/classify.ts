/** How an opencode run ended (docs/backends/opencode.md, "Failures"). */
import type { AgentEvent, ExitOutcome, FailureClass } from "../contract.ts";
import { textFailure } from "./failure-text.ts";

/**
 * Signed out of the model's provider, opencode does not load it, so it cannot find the model: the
 * stream says only `UnknownError` "Unexpected server error" (~2 s), and the --print-logs line names
 * `ProviderModelNotFoundError` (docs/backends/opencode.md, "Failures"). A misspelt model id reads the same; both are a
 * fast, clean failure at launch, so it counts as auth (fall back, cool down) and `explain` names both.
 */
const MODEL_NOT_FOUND = /ProviderModelNotFoundError: Model not found: (\S+?)\.?(?=[\s")\]]|$)/;

function signedOutOrUnknownModel(outcome: ExitOutcome, errors: readonly Extract<AgentEvent, { kind: "error" }>[]): boolean {
  return errors.some((e) => e.message.startsWith("UnknownError")) && MODEL_NOT_FOUND.test(outcome.stderrTail);
}

export function explainOpencode(outcome: ExitOutcome): string | undefined {
  const model = MODEL_NOT_FOUND.exec(outcome.stderrTail)?.[1];
  if (!model) return undefined;
  return `opencode could not load ${model}: its provider is not signed in (opencode auth login, or the provider's API key variable) or the model id is misspelt (\`opencode models\` lists what it can use)`;
}

export function classifyOpencode(outcome: ExitOutcome): FailureClass | undefined {
  if (outcome.exitCode === 127) return "not_installed";
  const errors = outcome.events.filter((e): e is Extract<AgentEvent, { kind: "error" }> => e.kind === "error");
  const classified = errors.find((e) => e.failure)?.failure;
  if (classified) return classified;
  if (signedOutOrUnknownModel(outcome, errors)) return "auth";
  if (errors.length > 0) return "task_failed";
  if (outcome.signal || outcome.exitCode === null) return "task_failed";
  if (outcome.exitCode !== 0) return textFailure(outcome.stderrTail) ?? "task_failed";
  return classifyExitZero(outcome);
}

/** Exit 0 with no error line is success when there is an answer; the stream has no terminal record. */
function classifyExitZero(outcome: ExitOutcome): FailureClass | undefined {
  const final = outcome.events.findLast((e) => e.kind === "final");
  if (final?.kind === "final" && !final.ok) return "task_failed";
  const answered = outcome.events.some((e) => e.kind === "text" && e.text.trim() !== "");
  if (answered) return undefined;
  if (final) return "empty_answer";
  if (outcome.events.length === 0 || outcome.rawStdoutTail.trim() !== "") return "bad_output";
  return "empty_answer";
}
