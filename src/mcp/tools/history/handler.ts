/** The history tools' handlers, typed by their schemas: call the history service, shape the reply. */
import type { ToolOutcome } from "../../outcome.ts";
import {
  deleteAsk as eraseAsk,
  deleteConsultation as eraseConsultation,
  deleteReview as eraseReview,
  deleteRun as eraseRun,
  describeCounts,
  total,
  type DeletionReport,
  type HistoryKind,
} from "../../../services/history/index.ts";
import { confirmDeleteAll as confirmErasure, requestDeleteAll as requestErasure } from "../../../services/history/delete-tokens.ts";
import type { Result } from "../../../result.ts";
import { withRuntime } from "../runtime.ts";
import type { confirmDeleteAllInput, deleteOneInput, requestDeleteAllInput } from "./schema.ts";

function deletion(out: Result<DeletionReport & { kind?: HistoryKind }>): ToolOutcome {
  if (!out.ok) return { ok: false, error: out.error };
  return { ok: true, data: { ...out.value }, text: `Deleted ${describeCounts(out.value.deleted)}.\n${out.value.note}` };
}

export function deleteConsultation(input: typeof deleteOneInput.infer): Promise<ToolOutcome> {
  return withRuntime((rt) => deletion(eraseConsultation(rt.store, input.id)));
}

export function deleteRun(input: typeof deleteOneInput.infer): Promise<ToolOutcome> {
  return withRuntime((rt) => deletion(eraseRun(rt.store, input.id)));
}

export function deleteReview(input: typeof deleteOneInput.infer): Promise<ToolOutcome> {
  return withRuntime((rt) => deletion(eraseReview(rt.store, input.id)));
}

export function deleteAsk(input: typeof deleteOneInput.infer): Promise<ToolOutcome> {
  return withRuntime((rt) => deletion(eraseAsk(rt.store, input.id)));
}

export function requestDeleteAll(input: typeof requestDeleteAllInput.infer): Promise<ToolOutcome> {
  return withRuntime((rt) => {
    const req = requestErasure(rt.store, input.kind, rt.now());
    const what =
      total(req.would_delete) === 0
        ? "Nothing is stored for that kind; there is nothing to confirm."
        : `Would delete ${describeCounts(req.would_delete)} (running ones are kept; the job records that delivered the deleted consultations, runs and reviews go with them; an ask's legs and usage go with it).`;
    const text = `${what}\nNothing was deleted yet. Show the person these counts; if they agree, call confirm_delete_all with token ${req.token} (valid until ${req.expires_at}, once).\n${req.note}`;
    return { ok: true, data: { ...req }, text };
  });
}

export function confirmDeleteAll(input: typeof confirmDeleteAllInput.infer): Promise<ToolOutcome> {
  return withRuntime((rt) => deletion(confirmErasure(rt.store, input.token, rt.now())));
}
