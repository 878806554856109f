/**
 * Who reviews (seed 001): the mode's configured reviewers, or the ids the caller names, each
 * resolved to an execution identity — runtime + model — so two agent ids on one model are one
 * reviewer, and the host's own identity is never a reviewer (the rule consult follows). Standard
 * mode asks exactly one reviewer, deep mode one to five. Pure.
 */
import type { AgentConfig, Config } from "../config/types.ts";
import { hasVersion, sameModel, tokenRuns } from "../config/model-id.ts";
import { hostExclusion, type Host } from "./consult-plan.ts";

export type ReviewMode = "standard" | "deep";

export const REVIEWER_LIMITS: Record<ReviewMode, { min: number; max: number }> = { standard: { min: 1, max: 1 }, deep: { min: 1, max: 5 } };

export interface ReviewerPick {
  reviewers: AgentConfig[];
  /** Named but left out, and why (disabled, advisory, the host's own identity). */
  excluded: { id: string; why: string }[];
  /** Named but the same execution identity as a reviewer already kept. */
  merged: { id: string; same_as: string }[];
}

export type ReviewPlanError = {
  code: "review_unconfigured" | "review_mode_unconfigured" | "unknown_agent" | "reviewer_count" | "no_eligible_reviewer";
  message: string;
};

/** `host` is undefined from a shell, where the person is the host and no runtime is excluded. */
export function pickReviewers(
  config: Config,
  host: Host | undefined,
  mode: ReviewMode,
  requested?: readonly string[],
): { ok: true; pick: ReviewerPick } | { ok: false; error: ReviewPlanError } {
  const review = config.consult.review;
  if (!review && requested === undefined) return failure("review_unconfigured", "No reviewers are configured: the config has no consult.review block.");
  const ids = requested ?? (mode === "standard" ? review?.reviewers : review?.deepReviewers) ?? [];
  if (ids.length === 0)
    return failure(
      "review_mode_unconfigured",
      `consult.review names no ${mode === "standard" ? "reviewers" : "deep_reviewers"}, so ${mode} reviews are not offered.`,
    );
  const unknown = ids.filter((id) => !config.agents[id]);
  if (unknown.length > 0) return failure("unknown_agent", `No agent ${unknown.map((id) => JSON.stringify(id)).join(", ")} is configured.`);
  const pick: ReviewerPick = { reviewers: [], excluded: [], merged: [] };
  for (const agent of ids.map((id) => config.agents[id] as AgentConfig)) place(agent, host, pick);
  return counted(pick, mode);
}

function place(agent: AgentConfig, host: Host | undefined, pick: ReviewerPick): void {
  const why = unavailable(agent, host);
  if (why) {
    pick.excluded.push({ id: agent.id, why });
    return;
  }
  const twin = pick.reviewers.find((kept) => sameExecution(kept, agent));
  if (twin) pick.merged.push({ id: agent.id, same_as: twin.id });
  else pick.reviewers.push(agent);
}

function unavailable(agent: AgentConfig, host: Host | undefined): string | undefined {
  if (!agent.enabled) return "disabled in config";
  if (agent.advisory) return "advisory entries never answer";
  return host ? hostExclusion(agent, host) : undefined;
}

function counted(pick: ReviewerPick, mode: ReviewMode): { ok: true; pick: ReviewerPick } | { ok: false; error: ReviewPlanError } {
  const { min, max } = REVIEWER_LIMITS[mode];
  const n = pick.reviewers.length;
  const left = [...pick.excluded.map((e) => `${e.id}: ${e.why}`), ...pick.merged.map((m) => `${m.id}: the same model as ${m.same_as}`)].join("; ");
  if (n === 0) return failure("no_eligible_reviewer", `No reviewer can take this review${left ? ` (${left})` : ""}.`);
  if (n < min || n > max) {
    const want = min === max ? `exactly ${min}` : `${min} to ${max}`;
    return failure("reviewer_count", `A ${mode} review takes ${want} reviewer(s); ${n} distinct model(s) were named${left ? ` (${left})` : ""}.`);
  }
  return { ok: true, pick };
}

/**
 * One execution identity, unless provably two: different runtimes are different; on one runtime a
 * missing model is the CLI's default (which could be the other's), an unversioned alias is the same
 * as any model of its family ("opus" is "claude-opus-5"), and versioned models compare as token runs.
 */
export function sameExecution(a: Pick<AgentConfig, "backend" | "model">, b: Pick<AgentConfig, "backend" | "model">): boolean {
  if (a.backend !== b.backend) return false;
  if (!a.model || !b.model) return true;
  if (hasVersion(a.model) && hasVersion(b.model)) return sameModel(a.model, b.model);
  const [short, long] = tokenRuns(a.model).length <= tokenRuns(b.model).length ? [a.model, b.model] : [b.model, a.model];
  const family = tokenRuns(long);
  return tokenRuns(short).every((t) => family.includes(t));
}

function failure(code: ReviewPlanError["code"], message: string): { ok: false; error: ReviewPlanError } {
  return { ok: false, error: { code, message } };
}
