/**
 * Job kinds, MCP side: how a kind's service result reads as a tool answer. Each tool group that
 * runs jobs owns its kind (tools/core/kind.ts, tools/consult/kind.ts) and hands it to the bridge;
 * tools/jobs/kinds.ts lists them all for job_wait / job_status. So a failed route is `isError` with
 * its code alike in the synchronous reply, through job_wait, and through an MCP Task. What each kind
 * runs is services/jobs/kinds.ts; a result stored by a finished job (or by another process) is read
 * back through the tool's own output schema rather than cast.
 */
import type { JobKind } from "../../store/jobs.ts";
import type { JobKinds } from "../../services/jobs/kinds.ts";
import type { Failure } from "../../result.ts";
import type { ToolSchema } from "../define.ts";
import type { ToolOutcome } from "../outcome.ts";

/** Function properties, not methods: their parameters are checked strictly, not bivariantly. */
export interface ShapedKind<R> {
  shape: (result: R) => ToolOutcome;
  /** A stored result, read back and shaped; undefined when it does not read as this kind's result. */
  shapeStored: (stored: unknown) => Promise<ToolOutcome | undefined>;
}

/**
 * A service result as a tool answer: its own error when it failed, never a failure without one.
 * Services answer `Settled` (src/result.ts), so a live failure always has its error; the fallback is
 * for a result read back from the store, which another process or an older build may have written.
 */
export function outcomeOf(ok: boolean, error: Failure | undefined, data: Record<string, unknown>, text: string, kind: JobKind): ToolOutcome {
  if (ok) return { ok: true, data, text };
  return { ok: false, error: error ?? { code: "internal_error", message: `${kind} failed without an error` }, data, text };
}

export function shapedKind<S>(shape: (result: S) => ToolOutcome, output: () => Promise<ToolSchema<S>>): ShapedKind<S> {
  return {
    shape,
    shapeStored: async (stored) => {
      const [schema, { validate }] = await Promise.all([output(), import("../validate.ts")]);
      const read = validate(schema, stored);
      return read.ok ? shape(read.value) : undefined;
    },
  };
}
