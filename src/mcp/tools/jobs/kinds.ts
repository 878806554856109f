/** Every job kind's shaping, for job_wait and job_status to read a finished job of any kind. */
import type { JobKind } from "../../../store/jobs.ts";
import type { JobKinds } from "../../../services/jobs/kinds.ts";
import type { ShapedKind } from "../../jobs/shaped.ts";
import { routeKind } from "../core/kind.ts";
import { consultKind } from "../consult/kind.ts";
import { reviewKind } from "../review/kind.ts";
import { workflowStepKind } from "../workflow/kind.ts";
import { askKind } from "../ask/kind.ts";

/** Every job kind has its shaping, and each shapes what its service returns (else this fails to compile). */
export const JOB_KINDS: { [K in JobKind]: ShapedKind<JobKinds[K]["result"]> } = {
  route: routeKind,
  consult: consultKind,
  review: reviewKind,
  workflow_step: workflowStepKind,
  ask: askKind,
};
