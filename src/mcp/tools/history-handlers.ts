/** Handlers of the history tools: validate (arktype), call the history service, shape the reply. */
import type { LoadedTool, ToolOutcome } from "../define.ts";
import { validatorFor } from "../schemas/validate.ts";
import { confirmDeleteAllInput, deleteOneInput, requestDeleteAllInput } from "../schemas/history.ts";
import { deleteConsultation, deleteRun, describeCounts, total, type DeletionReport, type HistoryKind } from "../../services/history.ts";
import { confirmDeleteAll, requestDeleteAll } from "../../services/delete-tokens.ts";
import type { Result } from "../../result.ts";
import { withRuntime } from "./with-runtime.ts";

function deletion(out: Result<DeletionReport & { kind?: HistoryKind }>): ToolOutcome {
  if (!out.ok) return { ok: false, error: out.error };
  return { ok: true, data: { ...out.value }, text: `Deleted ${describeCounts(out.value.deleted)}.\n${out.value.note}` };
}

export const deleteConsultationTool: LoadedTool = {
  validate: validatorFor(deleteOneInput),
  handler: (input) => withRuntime((rt) => deletion(deleteConsultation(rt.store, String(input.id)))),
};

export const deleteRunTool: LoadedTool = {
  validate: validatorFor(deleteOneInput),
  handler: (input) => withRuntime((rt) => deletion(deleteRun(rt.store, String(input.id)))),
};

export const requestDeleteAllTool: LoadedTool = {
  validate: validatorFor(requestDeleteAllInput),
  handler: (input) =>
    withRuntime((rt) => {
      const req = requestDeleteAll(rt.store, input.kind as HistoryKind, rt.now());
      const what = total(req.would_delete) === 0 ? "Nothing is stored for that kind; there is nothing to confirm." : `Would delete ${describeCounts(req.would_delete)} (running ones are kept; the job records that delivered the deleted consultations and runs go with them).`;
      const text = `${what}\nNothing was deleted yet. Show the person these counts; if they agree, call confirm_delete_all with token ${req.token} (valid until ${req.expires_at}, once).\n${req.note}`;
      return { ok: true, data: { ...req }, text };
    }),
};

export const confirmDeleteAllTool: LoadedTool = {
  validate: validatorFor(confirmDeleteAllInput),
  handler: (input) => withRuntime((rt) => deletion(confirmDeleteAll(rt.store, String(input.token), rt.now()))),
};
