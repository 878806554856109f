/**
 * The steps of `orchestrate review`, over the same services as the review tools: plan (printed to
 * stderr, nothing sent) → the person's own findings in deep mode → their yes at the terminal → the
 * reviewers in parallel, as a job (so other clients can see it) → the review on stdout.
 */
import { errorText } from "../result.ts";
import { resolveHost } from "../services/consult/target.ts";
import { planReview, type ReviewPlanRequest } from "../services/review/plan.ts";
import { approveRun, prepareRetry, type Approver } from "../services/review/run.ts";
import { startKindJob } from "../services/jobs/kinds.ts";
import { followJob } from "../services/shared/jobs.ts";
import type { Runtime } from "../services/shared/runtime.ts";
import type { FindingInput, SecretsMode } from "../store/reviews.ts";
import { describePlan, formatReview } from "../mcp/tools/review/format.ts";
import { EXIT, exitCodeFor } from "./exit-codes.ts";
import { shellWords } from "./shell-hints.ts";
import { SEVERITIES } from "../services/review/envelope.ts";
import { stdout, stderr } from "../safety/egress.ts";

export interface CliReview extends ReviewPlanRequest {
  /** Deep mode: the person's own findings, one per line (else asked at the terminal). */
  findingsText?: string;
  secrets: SecretsMode;
}

export async function runCliReview(rt: Runtime, req: CliReview): Promise<number> {
  // From a shell the person is the host; a configured or declared host runtime is still excluded.
  const host = resolveHost(rt, undefined);
  const plan = await planReview(rt, req, host.ok ? host.value : undefined);
  if (!plan.ok) return fail(plan.error);
  say(describePlan({ ok: true, ...plan.value }).join("\n"));
  const prompts = await import("../setup/prompts.ts");
  const problem = prompts.terminalProblem();
  if (problem) return fail({ code: "review_declined", message: `Not run: ${problem}. The plan above sent nothing.` });
  try {
    const given = req.findingsText === undefined ? undefined : parseFindings(req.findingsText);
    const findings = req.mode === "deep" && !given?.length ? await askFindings(prompts.text) : given;
    const approver: Approver = {
      kind: "terminal",
      ask: async () =>
        (await prompts.confirm(
          `Send this to ${plan.value.reviewers.length} reviewer(s)${req.secrets === "send_as_is" ? ", credential-shaped text unmasked" : ""}?`,
          false,
        ))
          ? "accept"
          : "decline",
    };
    const approved = await approveRun(
      rt,
      { review_id: plan.value.review_id, token: plan.value.token, secrets: req.secrets, ...(findings?.length ? { host_findings: findings } : {}) },
      approver,
    );
    if (!approved.ok) return fail(approved.error);
    const { review_id, agents, secrets } = approved.value;
    const job = startKindJob(rt, "review", { review_id, agents, secrets });
    followJob(job.id, (m) => say(`… ${m}`));
    const end = await job.done;
    if (!end.ok) return fail(end.error);
    stdout.write(`${formatReview(end.value)}\n`);
    return end.value.ok ? EXIT.ok : exitCodeFor(end.value.error?.code);
  } catch (error) {
    if (error instanceof prompts.Cancelled) return fail({ code: "cancelled", message: "Cancelled at the prompt; nothing was sent." });
    throw error;
  }
}

/**
 * `orchestrate review --retry REVIEW_ID`: review_retry from a shell — the failed or unparseable
 * reviewers asked again under the scope the person already approved, as a job; the review on stdout.
 */
export async function retryCliReview(rt: Runtime, reviewId: string, reviewers: string[] | undefined): Promise<number> {
  const prepared = prepareRetry(rt, reviewId, reviewers);
  if (!prepared.ok) return fail(prepared.error);
  const job = startKindJob(rt, "review", prepared.value);
  followJob(job.id, (m) => say(`… ${m}`));
  const end = await job.done;
  if (!end.ok) return fail(end.error);
  stdout.write(`${formatReview(end.value)}\n`);
  return end.value.ok ? EXIT.ok : exitCodeFor(end.value.error?.code);
}

/** Deep mode: the person's own findings, before any reviewer answers; one per prompt, empty to finish. */
async function askFindings(text: (message: string) => Promise<string>): Promise<FindingInput[]> {
  say("Deep review: record your own findings first (critical|important|minor: claim), an empty line to finish.");
  const out: FindingInput[] = [];
  for (;;) {
    const line = await text(`Finding ${out.length + 1}`);
    if (line === "") return out;
    const parsed = parseFindings(line);
    if (parsed.length === 0) say("Write it as severity: claim, e.g. important: the cache has no lock.");
    out.push(...parsed);
  }
}

function say(line: string): void {
  stderr.write(`${line}\n`);
}

function fail(error: { code: Parameters<typeof exitCodeFor>[0] & string; message: string; hint?: string }): number {
  say(errorText({ code: error.code, message: shellWords(error.message), hint: error.hint === undefined ? undefined : shellWords(error.hint) }));
  return exitCodeFor(error.code);
}

/** One finding per line, `severity: claim`; other lines are ignored. */
export function parseFindings(text: string): FindingInput[] {
  return text.split("\n").flatMap((line) => {
    const m = /^\s*(\w+)\s*:\s*(.+)$/.exec(line);
    const severity = SEVERITIES.find((s) => s === m?.[1]?.toLowerCase());
    return m && severity ? [{ severity, claim: (m[2] ?? "").trim() }] : [];
  });
}
