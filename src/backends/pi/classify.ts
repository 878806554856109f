/**
 * How a pi run ended. In `--mode json` the exit code says nothing about the model call (exit 0
 * after a 401, a 429 retried to exhaustion, a 404 model — docs/backends/pi.md, "Failures and
 * retries"), so the
 * verdict is the last `agent_end`'s last assistant message (the `final` event); exit 1 comes only
 * from startup or the prompt call throwing (no credentials, unknown provider, unknown flag).
 */
import type { AgentEvent, ExitOutcome, FailureClass } from "../contract.ts";
import { OLD_NODE, piFailureFromText, SESSION_ELSEWHERE, SESSION_MISSING, UNKNOWN_OPTION, UNKNOWN_PROVIDER } from "./failure-text.ts";

type Final = Extract<AgentEvent, { kind: "final" }>;

export function classifyPi(outcome: ExitOutcome): FailureClass | undefined {
  if (notInstalled(outcome)) return "not_installed";
  const final = outcome.events.findLast((e): e is Final => e.kind === "final");
  if (final?.ok && outcome.exitCode === 0 && !outcome.signal) return final.text?.trim() ? undefined : "empty_answer";
  for (const text of failureTexts(outcome, final)) {
    const failure = piFailureFromText(text);
    if (failure) return failure;
  }
  if (final || outcome.signal || outcome.exitCode !== 0) return "task_failed";
  // Exit 0 without a verdict: garbage on stdout, or pi doing nothing (empty prompt, or a resume
  // of another cwd's session, which pi offers to fork and headless declines).
  return outcome.rawStdoutTail.trim() ? "bad_output" : "empty_answer";
}

function notInstalled(outcome: ExitOutcome): boolean {
  if (outcome.exitCode === 127) return true;
  // A 1.x pi that cannot start on this Node is as good as absent.
  if (OLD_NODE.test(outcome.stderrTail)) return true;
  return outcome.exitCode === null && !outcome.signal && /ENOENT|command not found/.test(outcome.stderrTail);
}

/** Newest first: the verdict, the failed messages, the retry notices, then stderr. */
function failureTexts(outcome: ExitOutcome, final: Final | undefined): string[] {
  const errors = outcome.events.flatMap((e) => (e.kind === "error" ? [e.message] : [])).reverse();
  const retries = outcome.events.flatMap((e) => (e.kind === "retry" ? [e.message] : [])).reverse();
  const verdict = final && !final.ok && final.message ? [final.message] : [];
  return [...verdict, ...errors, ...retries, outcome.stderrTail].filter((t) => t.trim() !== "");
}

/** What the class alone does not say, for the failures pi explains badly or not at all. */
export function explainPi(outcome: ExitOutcome): string | undefined {
  const text = outcome.stderrTail;
  if (OLD_NODE.test(text))
    return "pi 1.x (@earendil-works/pi-coding-agent) needs Node 22.19 or newer; upgrade Node, or install @mariozechner/pi-coding-agent@0.73.1";
  const option = UNKNOWN_OPTION.exec(text)?.[1];
  if (option) return `this pi does not know ${option}: orchestrate read its release line wrongly or the install changed; run \`orchestrate check\``;
  const provider = UNKNOWN_PROVIDER.exec(text)?.[1];
  if (provider !== undefined)
    return `pi knows no provider "${provider}": fix the agent's provider:, or define it in ~/.pi/agent/models.json (\`pi --list-models\` lists what pi knows)`;
  const session = SESSION_MISSING.exec(text)?.[1];
  if (session !== undefined) return `pi has no session ${session} for this directory any more (deleted from ~/.pi/agent/sessions?); start a new consultation`;
  if (SESSION_ELSEWHERE.test(`${text}\n${outcome.rawStdoutTail}`)) return "the session belongs to another directory; pi would only fork it interactively";
  return undefined;
}
