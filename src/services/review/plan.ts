/**
 * Step one of a review (seed 001): a plan that sends nothing. It names the reviewers (execution
 * identities, the host's own excluded), the material's size, web access, how many requests a run
 * makes, and where credential-shaped text sits in the material; and it issues a one-time token
 * bound to exactly that plan and material. Nothing is spawned and no CLI is asked anything.
 */
import type { Host } from "../../routing/consult-plan.ts";
import { pickReviewers, type ReviewerPick } from "../../routing/review-plan.ts";
import { fail, ok, type Result } from "../../result.ts";
import { newId } from "../../store/ids.ts";
import type { ReviewMode } from "../../store/reviews.ts";
import {
  lineCount,
  locateSecretsYielding,
  readMaterial,
  sizeOf,
  type MaterialInput,
  type MaterialItem,
  type MaterialSize,
  type SecretLocation,
} from "./material.ts";
import { hold, snapshotOf, type ReviewScope } from "./scope.ts";
import { bindToken, digest, newToken } from "../shared/tokens.ts";
import type { Runtime } from "../shared/runtime.ts";
import { webGrant } from "../answer/web.ts";
import { Redacted } from "../../safety/redact.ts";
import { agentEstimate, sumEstimates, type CostEstimate } from "../shared/price.ts";

/** Long enough to read a plan and ask the person; short enough that a token in a transcript dies. */
export const REVIEW_TOKEN_TTL_MS = 30 * 60_000;

export interface ReviewPlanRequest {
  goal: string;
  mode: ReviewMode;
  material: MaterialInput[];
  context?: string;
  web?: boolean;
  reviewers?: string[];
}

/** What the plan shows (and what the store keeps of it: everything but the token). */
export interface ReviewPlan {
  review_id: string;
  mode: ReviewMode;
  reviewers: { id: string; backend: string; model: string | null }[];
  excluded: { id: string; why: string }[];
  merged: { id: string; same_as: string }[];
  material: { items: { label: string; chars: number; lines: number }[]; total: MaterialSize };
  /** granted: any reviewer may browse; per reviewer, whether it may and why not (answer/web.ts). */
  web: { requested: boolean; granted: boolean; reviewers?: { id: string; granted: boolean; why?: string }[]; note?: string };
  requests: { reviewers: number; at_most: number };
  /** Each reviewer's estimated first request, and their sum (unknown when one reviewer's model has no price). */
  cost: { reviewers: ({ id: string } & CostEstimate)[]; total: ReturnType<typeof sumEstimates> };
  secrets: SecretLocation[];
  expires_at: string;
}

export interface IssuedPlan extends ReviewPlan {
  token: string;
}

/** Said when web was requested and no reviewer may browse. */
const NO_WEB = "No reviewer may search the web (see each one's reason); they judge the material and what they already know.";

/**
 * Material up to 2M characters is scrubbed twice here (located, then the stored copy, whose joined
 * text gives the row's length and hash): each with the loop free between the scrubber's passes, so
 * a plan never stalls the server's other calls.
 */
export async function planReview(rt: Runtime, req: ReviewPlanRequest, host: Host | undefined): Promise<Result<IssuedPlan>> {
  const pick = pickReviewers(rt.config, host, req.mode, req.reviewers);
  if (!pick.ok) return fail(pick.error.code, pick.error.message);
  const items = readMaterial(req.material, rt.roots);
  if (!items.ok) return items;
  const grants = req.web ? pick.pick.reviewers.map((a) => ({ id: a.id, grant: webGrant(rt, a) })) : [];
  const webReviewers = grants.flatMap((g) => (g.grant.granted ? [g.id] : []));
  const scope: ReviewScope = {
    goal: req.goal,
    mode: req.mode,
    ...(req.context !== undefined ? { context: req.context } : {}),
    web: req.web === true,
    ...(webReviewers.length > 0 ? { webReviewers } : {}),
    reviewers: pick.pick.reviewers.map((a) => ({ id: a.id, backend: a.backend, model: a.model ?? null })),
    material: req.material,
  };
  const snapshot = snapshotOf(scope, items.value);
  const token = newToken("rvw");
  const expiresAt = rt.now() + REVIEW_TOKEN_TTL_MS;
  const id = newId(rt.now());
  const named = [{ label: "goal", text: req.goal }, ...(req.context ? [{ label: "context", text: req.context }] : []), ...items.value];
  const secrets = await locateSecretsYielding(named);
  const chars = sizeOf(items.value, `${req.goal}${req.context ?? ""}`).chars;
  const estimates = await Promise.all(pick.pick.reviewers.map(async (a) => ({ id: a.id, ...(await agentEstimate(rt.config, a, chars)) })));
  const plan = describe(
    id,
    req,
    scope,
    pick.pick,
    items.value,
    expiresAt,
    secrets,
    grants.map((g) => ({ id: g.id, granted: g.grant.granted, ...(g.grant.granted ? {} : { why: g.grant.why }) })),
    { reviewers: estimates, total: sumEstimates(estimates) },
  );
  const material = await Promise.all(
    items.value.map(async ({ label, text, firstLine }) => ({ label, text: await Redacted.of(text), ...(firstLine !== undefined ? { firstLine } : {}) })),
  );
  const materialText = Redacted.joined(
    material.map((m) => m.text),
    "\n",
  );
  rt.store.reviews.create({
    id,
    mode: req.mode,
    goal: req.goal,
    plan,
    material,
    materialText,
    ...(host ? { hostRuntime: host.runtime } : {}),
    token: { sha256: digest(token), binding: bindToken(token, snapshot), expiresAt },
    reviewers: pick.pick.reviewers.map((a) => ({ agentId: a.id, backend: a.backend, ...(a.model ? { model: a.model } : {}) })),
    now: rt.now(),
  });
  hold(id, { scope, items: items.value, snapshot });
  return ok({ ...plan, token });
}

type WebLine = { id: string; granted: boolean; why?: string };

function describe(
  id: string,
  req: ReviewPlanRequest,
  scope: ReviewScope,
  pick: ReviewerPick,
  items: readonly MaterialItem[],
  expiresAt: number,
  secrets: SecretLocation[],
  web: WebLine[],
  cost: ReviewPlan["cost"],
): ReviewPlan {
  const granted = web.some((w) => w.granted);
  return {
    review_id: id,
    mode: req.mode,
    reviewers: scope.reviewers,
    excluded: pick.excluded,
    merged: pick.merged,
    material: {
      items: items.map((m) => ({ label: m.label, chars: m.text.length, lines: lineCount(m.text) })),
      total: sizeOf(items, `${req.goal}${req.context ?? ""}`),
    },
    web: { requested: req.web === true, granted, ...(req.web ? { reviewers: web } : {}), ...(req.web && !granted ? { note: NO_WEB } : {}) },
    // A reply that is not the required JSON gets one repair turn on the same session.
    requests: { reviewers: scope.reviewers.length, at_most: scope.reviewers.length * 2 },
    cost,
    secrets,
    expires_at: new Date(expiresAt).toISOString(),
  };
}
