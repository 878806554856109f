/**
 * Job kinds, MCP side: how each kind's service result reads as a tool answer. This is the one place
 * it happens, so a failed route is `isError` with its code alike in the synchronous reply, through
 * job_wait / job_status, and through an MCP Task. What each kind runs is services/job-kinds.ts; a
 * result stored by a finished job (or by another process) is read back through the tool's own output
 * schema rather than cast.
 */
import type { JobKind } from "../../store/jobs.ts";
import type { JobKinds } from "../../services/job-kinds.ts";
import type { Failure } from "../../result.ts";
import type { ToolSchema } from "../define.ts";
import type { ToolOutcome } from "../outcome.ts";
import { formatRoute, type RouteOutput } from "../tools/core/format.ts";
import { formatConsult, type ConsultOutput } from "../tools/consult/format.ts";

/** Function properties, not methods: their parameters are checked strictly, not bivariantly. */
export interface ShapedKind<R> {
  shape: (result: R) => ToolOutcome;
  /** A stored result, read back and shaped; undefined when it does not read as this kind's result. */
  shapeStored: (stored: unknown) => Promise<ToolOutcome | undefined>;
}

/** Every job kind has its shaping, and each shapes what its service returns (else this fails to compile). */
export const JOB_KINDS: { [K in JobKind]: ShapedKind<JobKinds[K]["result"]> } = {
  route: shapedKind(shapeRoute, async () => (await import("../tools/core/schema.ts")).routeOutput),
  consult: shapedKind(shapeConsult, async () => (await import("../tools/consult/schema.ts")).consultOutput),
};

function shapeRoute(outcome: RouteOutput): ToolOutcome {
  const { ok, error, ...data } = outcome;
  return outcomeOf(ok, error, data, formatRoute(outcome), "route");
}

function shapeConsult(envelope: ConsultOutput): ToolOutcome {
  const { ok, error, ...data } = envelope;
  return outcomeOf(ok, error, data, formatConsult(envelope), "consult");
}

function outcomeOf(ok: boolean, error: Failure | undefined, data: Record<string, unknown>, text: string, kind: JobKind): ToolOutcome {
  if (ok) return { ok: true, data, text };
  return { ok: false, error: error ?? { code: "internal_error", message: `${kind} failed without an error` }, data, text };
}

function shapedKind<S>(shape: (result: S) => ToolOutcome, output: () => Promise<ToolSchema<S>>): ShapedKind<S> {
  return {
    shape,
    shapeStored: async (stored) => {
      const [schema, { validate }] = await Promise.all([output(), import("../tools/validate.ts")]);
      const read = validate(schema, stored);
      return read.ok ? shape(read.value) : undefined;
    },
  };
}
