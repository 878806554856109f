/**
 * One reviewer's run: an answer-only consult turn (the consult sandbox, model identity check, one
 * repair turn) in its own scratch directory and under its own time limit, read as findings. Its end
 * is one of answered, unparseable (the reply is kept), failed (its error) or cancelled.
 */
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AgentConfig } from "../../config/types.ts";
import type { ReviewerEnd } from "../../store/reviews.ts";
import { answerTraits } from "../answer/cli-variant.ts";
import { consultTurn, type TurnOutcome } from "../answer/turn.ts";
import { REVIEW_CONTRACT, type ReviewContent } from "./envelope.ts";
import type { Runtime } from "../shared/runtime.ts";
import { webTurnLimit } from "../answer/web.ts";

export interface ReviewerSpec {
  reviewId: string;
  agent: AgentConfig;
  prompt: string;
  /** Granted the web at plan time (plan.ts): its web tools are offered, under the web turn limit. */
  web?: boolean;
  signal: AbortSignal;
  onActivity: (text: string) => void;
}

/** The reviewer's own limit: its agent's maxWallSec, else consult's timeout (a review is a question too). */
export function reviewerTimeoutSec(rt: Runtime, agent: AgentConfig): number {
  return agent.limits.maxWallSec ?? rt.config.consult.timeoutSec;
}

export async function runReviewer(rt: Runtime, spec: ReviewerSpec): Promise<ReviewerEnd> {
  const started = rt.now();
  const cwd = join(tmpdir(), `orchestrate-review-${spec.reviewId}-${spec.agent.id}`);
  try {
    const turn = await consultTurn(rt, {
      agent: spec.agent,
      contract: REVIEW_CONTRACT,
      traits: await answerTraits(rt, spec.agent),
      prompt: spec.prompt,
      cwd,
      deadline: started + reviewerTimeoutSec(rt, spec.agent) * 1000,
      signal: spec.signal,
      onActivity: spec.onActivity,
      ...(spec.web ? { web: { turnLimit: webTurnLimit(rt) } } : {}),
    });
    return endOf(turn, rt.now() - started);
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

function endOf(turn: TurnOutcome<ReviewContent>, latencyMs: number): ReviewerEnd {
  const reported = turn.models.at(-1);
  const base = {
    modelVerified: turn.verification,
    usage: turn.usage,
    ...(turn.costEstimated ? { costEstimated: true } : {}),
    latencyMs,
    ...(reported ? { modelReported: reported } : {}),
  };
  if (turn.content) return { ...base, status: "answered", summary: turn.content.summary, findings: turn.content.findings };
  const error = turn.error ?? { code: "bad_output", message: "No reply was produced." };
  const errorFields = { errorCode: error.code, errorMessage: error.message };
  // bad_output: it replied, but not as findings — recorded as unparseable with what it said, never dropped.
  if (error.code === "bad_output") return { ...base, ...errorFields, status: "unparseable", reply: turn.text };
  return { ...base, ...errorFields, status: error.code === "cancelled" ? "cancelled" : "failed" };
}
