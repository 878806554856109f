/**
 * Step two of a review: approval, then the reviewers. Approval spends the plan's one-time token
 * (exactly one caller wins it), checks the token's binding against the material as it is now, puts
 * the plan to the person where the client can (MCP elicitation; a terminal for `orchestrate review`)
 * and records the host's own findings before any reviewer runs — required in deep mode. The
 * reviewers then answer in parallel as a job, each under its own limit, each recorded as it ends,
 * so one failing keeps the others' findings.
 */
import type { AgentConfig } from "../../config/types.ts";
import { checkDepth } from "../../safety/depth.ts";
import { redact } from "../../safety/redact.ts";
import { fail, ok, type Failure, type Result, type Settled } from "../../result.ts";
import type { Approval, FindingInput, ReviewerEnd, ReviewRecord, ReviewStatus, SecretsMode } from "../../store/reviews.ts";
import { cancelJob } from "../shared/jobs.ts";
import { buildReviewPrompt } from "./envelope.ts";
import { locateSecretsYielding, masked, sizeOf } from "./material.ts";
import { runReviewer } from "./reviewer.ts";
import { heldHere, release, resolveHeld, type ResolvedScope } from "./scope.ts";
import { reviewView, type ReviewView } from "./views.ts";
import { bindToken, digest, sameDigest } from "../shared/tokens.ts";
import type { Runtime } from "../shared/runtime.ts";
import { storeLedger, type StoreLedger } from "../shared/store-writes.ts";

export interface ReviewRunRequest {
  review_id: string;
  token: string;
  host_findings?: FindingInput[];
  secrets?: SecretsMode;
}

/** Puts a plan to the person; only "accept" lets the run start. */
export interface Approver {
  kind: Extract<Approval, "elicitation" | "terminal">;
  ask: (question: string) => Promise<"accept" | "decline" | "failed">;
}

/** What a review job runs: these reviewers of this review, the material sent as the run chose. */
export interface ReviewJobRequest {
  review_id: string;
  agents: string[];
  secrets: SecretsMode;
}

/** store_notice: `store_unavailable: …` when the store refused a record after a reviewer answered (services/shared/store-writes.ts). */
export type ReviewOutcome = ReviewView & Settled & { store_notice?: string };

export async function approveRun(
  rt: Runtime,
  req: ReviewRunRequest,
  approver: Approver | undefined,
): Promise<Result<ReviewJobRequest & { approval: Approval }>> {
  const record = rt.store.reviews.get(req.review_id);
  if (!record) return fail("unknown_review", `No review "${req.review_id}" is stored here.`);
  // Checked before the token is spent: the host can call again with its findings.
  if (record.mode === "deep" && !req.host_findings?.length)
    return fail("host_findings_required", "A deep review records the host's own findings before any reviewer answers; host_findings is missing or empty.");
  const depth = checkDepth(rt.env, rt.config.maxDepth);
  if (!depth.ok) return depth;
  // Before the token is spent: a server that cannot check it against the material leaves it, and
  // the review, as they were — spending it here made the review stale for the server that can.
  const here = record.status === "planned" ? heldHere(req.review_id) : ok(true);
  if (!here.ok) return here;
  const claimed = claim(rt, req);
  if (!claimed.ok) return claimed;
  const scope = checkBinding(rt, req, claimed.value);
  if (!scope.ok) return scope;
  const secrets = req.secrets ?? "mask";
  const approval = await approve(rt, record, scope.value, approver, secrets);
  if (!approval.ok) return approval;
  if (req.host_findings?.length) rt.store.reviews.addHostFindings(record.id, req.host_findings, rt.now());
  if (!rt.store.reviews.transition(record.id, ["approving"], "running", { approval: approval.value, secrets }, rt.now()))
    return fail("review_wrong_state", `Review ${record.id} was cancelled while it waited for approval.`);
  return ok({ review_id: record.id, agents: record.reviewers.map((r) => r.agentId), secrets, approval: approval.value });
}

function claim(rt: Runtime, req: ReviewRunRequest): Result<string> {
  const out = rt.store.reviews.claim(req.review_id, digest(req.token), rt.now());
  switch (out.outcome) {
    case "claimed":
      return ok(out.binding);
    case "unknown":
      return fail("unknown_review", `No review "${req.review_id}" is stored here.`);
    case "expired":
      return fail(
        "invalid_token",
        `Review ${req.review_id}'s token expired before it was used; nothing was sent.`,
        "Call review again for a new plan and token.",
      );
    case "wrong_state":
      return fail("review_wrong_state", `Review ${req.review_id} is ${out.status}, not waiting to run.`);
    default:
      return fail(
        "invalid_token",
        `That token does not run review ${req.review_id}: it is not this plan's, or it was already used (a token runs its plan once).`,
        "Call review_get to see the review; plan again for a new token.",
      );
  }
}

/** The token is bound to exactly the planned scope and material; a file edited since is refused. */
function checkBinding(rt: Runtime, req: ReviewRunRequest, binding: string): Result<ResolvedScope> {
  const scope = resolveHeld(req.review_id, rt.roots);
  const bound = scope.ok && sameDigest(bindToken(req.token, scope.value.snapshot), binding);
  if (scope.ok && bound) return scope;
  rt.store.reviews.transition(req.review_id, ["approving"], "stale", {}, rt.now());
  release(req.review_id);
  return scope.ok ? fail("plan_changed", `Review ${req.review_id}'s token is not bound to the material as it is now; nothing was sent.`) : scope;
}

async function approve(
  rt: Runtime,
  record: ReviewRecord,
  scope: ResolvedScope,
  approver: Approver | undefined,
  secrets: SecretsMode,
): Promise<Result<Approval>> {
  if (!approver) return ok("token");
  const answer = await approver.ask(await approvalQuestion(record, scope, secrets)).catch((): "failed" => "failed");
  if (answer === "accept") return ok(approver.kind);
  rt.store.reviews.transition(record.id, ["approving"], "declined", {}, rt.now());
  release(record.id);
  if (answer === "decline") return fail("review_declined", `The person declined review ${record.id}; nothing was sent to any reviewer.`);
  return fail("approval_failed", `Review ${record.id} could not be put to the person for approval, so it was not run; nothing was sent.`);
}

/** The plan in a few lines, as the person is asked to approve it: worked out from the scope that would be sent. */
export async function approvalQuestion(record: ReviewRecord, resolved: ResolvedScope, secrets: SecretsMode): Promise<string> {
  const { goal, context } = resolved.scope;
  const who = record.reviewers.map((r) => `${r.agentId} (${r.backend}${r.model ? ` · ${r.model}` : ""})`).join(", ");
  const found = (await locateSecretsYielding([{ label: "goal", text: goal }, ...(context ? [{ label: "context", text: context }] : []), ...resolved.items]))
    .length;
  const size = sizeOf(resolved.items);
  const handling =
    found === 0
      ? "No credential-shaped text was found."
      : `${found} credential-shaped value(s) found; they will be ${secrets === "mask" ? "masked" : "SENT AS IS"}.`;
  return [
    `Run a ${record.mode} review with ${record.reviewers.length} reviewer(s): ${who}?`,
    `Goal: ${redact(goal).slice(0, 300)}`,
    `Material: ${size.items} item(s), ${size.chars} characters; at most ${record.reviewers.length * 2} request(s).`,
    handling,
    "The material may stay in each reviewer CLI's own history.",
  ].join("\n");
}

// ---- the job: reviewers in parallel ----

export interface ReviewHooks {
  signal: AbortSignal;
  onProgress: (message: string) => void;
}

export async function runReviewers(rt: Runtime, req: ReviewJobRequest, hooks: ReviewHooks): Promise<ReviewOutcome> {
  const scope = resolveHeld(req.review_id, rt.roots);
  if (!scope.ok) return stop(rt, req.review_id, "stale", scope.error);
  const items = req.secrets === "mask" ? await masked(scope.value.items) : scope.value.items;
  const { goal, mode, context } = scope.value.scope;
  const prompt = buildReviewPrompt({
    goal: req.secrets === "mask" ? redact(goal) : goal,
    mode,
    ...(context ? { context: req.secrets === "mask" ? redact(context) : context } : {}),
    material: items,
  });
  const agents = req.agents.map((id) => rt.config.agents[id]).filter((a): a is AgentConfig => a !== undefined);
  const board = progressBoard(rt, req.review_id, agents, hooks.onProgress);
  rt.store.reviews.startReviewers(
    req.review_id,
    agents.map((a) => a.id),
    rt.now(),
  );
  // Once a reviewer has answered, a store that refuses its record costs neither its answer nor the review's end.
  const ledger = storeLedger(`review ${req.review_id}`);
  const ends = new Map<string, ReviewerEnd>();
  try {
    const web = new Set(scope.value.scope.webReviewers ?? []);
    await Promise.all(
      agents.map((agent) =>
        oneReviewer(rt, { ledger, ends }, req.review_id, agent, web.has(agent.id) ? withWeb(prompt) : prompt, web.has(agent.id), hooks.signal, board),
      ),
    );
  } finally {
    board.stop();
  }
  return settle(rt, { ledger, ends }, req.review_id, hooks.signal.aborted);
}

/** The reviewers' ends as they came back, and the ledger their records go through. */
interface InHand {
  ledger: StoreLedger;
  ends: Map<string, ReviewerEnd>;
}

/** A reviewer granted the web at plan time may use its web tools, and only those. */
function withWeb(prompt: string): string {
  return `${prompt}\n\nYou may use your web search and web fetch tools to check claims against current sources (no other tool); cite the URLs you relied on in your findings.`;
}

async function oneReviewer(
  rt: Runtime,
  hand: InHand,
  reviewId: string,
  agent: AgentConfig,
  prompt: string,
  web: boolean,
  signal: AbortSignal,
  board: Board,
): Promise<void> {
  const end = await runReviewer(rt, { reviewId, agent, prompt, web, signal, onActivity: (text) => board.set(agent.id, `running (${text})`) }).catch(
    (error: unknown): ReviewerEnd => ({
      status: "failed",
      errorCode: "internal_error",
      errorMessage: String(error),
      modelVerified: "unverified",
      latencyMs: 0,
    }),
  );
  // Recorded as each ends: a reviewer still running cannot hold back another's findings.
  hand.ends.set(agent.id, end);
  hand.ledger.write(() => rt.store.reviews.finishReviewer(reviewId, agent.id, end, rt.now()));
  const count = end.findings?.length ?? 0;
  board.set(
    agent.id,
    end.status === "answered" ? `answered (${count} finding${count === 1 ? "" : "s"})` : `${end.status}${end.errorCode ? ` (${end.errorCode})` : ""}`,
    true,
  );
}

/** All answered → awaiting the host's synthesis; any failed or unparseable → incomplete until retried. */
function settle(rt: Runtime, hand: InHand, id: string, aborted: boolean): ReviewOutcome {
  const record = rt.store.reviews.get(id);
  if (!record) return { ...missing(id), ok: false, error: { code: "unknown_review", message: `Review ${id} disappeared while it ran.` } };
  // Judged by the ends in hand: the store's copy lags when it refused a reviewer's record.
  const answered = (agentId: string, stored: string) => (hand.ends.get(agentId)?.status ?? stored) === "answered";
  const next: ReviewStatus = aborted ? "cancelled" : record.reviewers.every((r) => answered(r.agentId, r.status)) ? "awaiting_synthesis" : "incomplete";
  hand.ledger.write(() => rt.store.reviews.transition(id, ["running"], next, {}, rt.now()));
  if (next === "cancelled") release(id);
  const notice = hand.ledger.notice();
  const view = notice ? inHandView(reviewView(rt.store.reviews.get(id) ?? record), next, hand.ends) : reviewView(rt.store.reviews.get(id) ?? record);
  const told = notice ? { store_notice: notice } : {};
  if (view.status === "cancelled")
    return {
      ...view,
      ...told,
      ok: false,
      error: { code: "cancelled", message: `Review ${id} was cancelled; the findings of reviewers that had answered are kept.` },
    };
  return { ...view, ...told, ok: true };
}

/** The view as the reviewers ended, for a store that has not taken their records yet: their status, summary and reply. */
function inHandView(view: ReviewView, status: ReviewStatus, ends: ReadonlyMap<string, ReviewerEnd>): ReviewView {
  const hidden = view.mode === "deep" && !view.findings.some((f) => f.source === "host");
  const reviewers = view.reviewers.map((r) => {
    const end = ends.get(r.id);
    if (!end) return r;
    const said = hidden ? {} : { summary: end.summary ?? null, ...(end.reply !== undefined ? { reply: end.reply } : {}) };
    return {
      ...r,
      status: end.status,
      ...said,
      ...(end.errorCode ? { error: { code: end.errorCode, message: end.errorMessage ?? "" } } : {}),
      model_verification: end.modelVerified,
      latency_ms: end.latencyMs,
    };
  });
  return { ...view, status, reviewers };
}

function stop(rt: Runtime, id: string, status: ReviewStatus, error: Failure): ReviewOutcome {
  rt.store.reviews.transition(id, ["running"], status, {}, rt.now());
  const record = rt.store.reviews.get(id);
  return { ...(record ? reviewView(record) : missing(id)), ok: false, error };
}

function missing(id: string): ReviewView {
  return {
    review_id: id,
    mode: "standard",
    status: "cancelled",
    approval: null,
    secrets: null,
    goal: null,
    plan: null,
    reviewers: [],
    findings: [],
    synthesis: null,
    next: "Plan a new review.",
  };
}

// ---- progress: one line for the whole review, per reviewer ----

interface Board {
  set(agentId: string, state: string, done?: boolean): void;
  stop(): void;
}

function progressBoard(rt: Runtime, reviewId: string, agents: readonly AgentConfig[], say: (message: string) => void): Board {
  const started = rt.now();
  const states = new Map(agents.map((a) => [a.id, "starting"]));
  const done = new Set<string>();
  const line = () => {
    const secs = Math.round((rt.now() - started) / 1000);
    const parts = agents.map((a) => `${a.id}: ${states.get(a.id)}${done.has(a.id) ? "" : ` ${secs} s`}`);
    say(`review ${reviewId} · ${done.size}/${agents.length} done · ${parts.join(" · ")}`);
  };
  line();
  const timer = setInterval(line, 2000);
  return {
    set: (agentId, state, finished) => {
      states.set(agentId, state);
      if (!finished) return;
      done.add(agentId);
      line();
    },
    stop: () => clearInterval(timer),
  };
}

// ---- cancel and retry ----

export function cancelReview(rt: Runtime, id: string): Result<ReviewView> {
  const record = rt.store.reviews.get(id);
  if (!record) return fail("unknown_review", `No review "${id}" is stored here.`);
  if (record.status === "running") {
    const job = rt.store.jobs.list({ status: "running", limit: 1000 }).find((j) => j.kind === "review" && namesReview(j.args, id));
    if (job && !cancelJob(job.id, "cancelled")) return fail("job_not_owned", `Review ${id} is running in another orchestrate process (job ${job.id}).`);
  }
  if (!rt.store.reviews.transition(id, ["planned", "approving", "running"], "cancelled", {}, rt.now()))
    return fail("review_wrong_state", `Review ${id} is ${record.status}; only a planned or running review can be cancelled.`);
  release(id);
  return ok(reviewView(rt.store.reviews.get(id) ?? record));
}

/** A review job's stored arguments name its review. */
function namesReview(args: unknown, id: string): boolean {
  return typeof args === "object" && args !== null && "review_id" in args && args.review_id === id;
}

const RETRIABLE = new Set(["failed", "unparseable", "cancelled"]);

/** Re-asks failed or unparseable reviewers under the same scope: the material must still be what was planned. */
export function prepareRetry(rt: Runtime, id: string, named: readonly string[] | undefined): Result<ReviewJobRequest> {
  const record = rt.store.reviews.get(id);
  if (!record) return fail("unknown_review", `No review "${id}" is stored here.`);
  if (record.status !== "incomplete")
    return fail("review_wrong_state", `Review ${id} is ${record.status}; only an incomplete review (a reviewer failed or replied unparseably) is retried.`);
  const retriable = record.reviewers.filter((r) => RETRIABLE.has(r.status)).map((r) => r.agentId);
  const agents = named ?? retriable;
  const wrong = agents.filter((a) => !retriable.includes(a));
  if (wrong.length > 0 || agents.length === 0)
    return fail(
      "invalid_arguments",
      `Only failed or unparseable reviewers are retried (${retriable.join(", ") || "none"}); ${wrong.join(", ")} ${wrong.length === 1 ? "is" : "are"} not.`,
      "Name reviewers review_get lists as failed or unparseable, or leave reviewers out.",
    );
  const scope = resolveHeld(id, rt.roots);
  if (!scope.ok) return scope;
  if (!rt.store.reviews.transition(id, ["incomplete"], "running", {}, rt.now()))
    return fail("review_wrong_state", `Review ${id} changed state; call review_get.`);
  return ok({ review_id: id, agents: [...agents], secrets: record.secrets ?? "mask" });
}
