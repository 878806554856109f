import type { Type } from "arktype";
import { dryRunInput, dryRunOutput, listTiersInput, listTiersOutput, routeInput, routeOutput } from "./core.ts";
import { initApplyInput, initApplyOutput, initPreviewInput, initPreviewOutput, initStatusInput, initStatusOutput } from "./init.ts";
import { consultInput, consultOutput, getConsultationInput, getConsultationOutput, listAgentsInput, listAgentsOutput } from "./consult.ts";
import { confirmDeleteAllInput, deleteOneInput, deletionOutput, requestDeleteAllInput, requestDeleteAllOutput } from "./history.ts";
import { jobCancelInput, jobOutput, jobStatusInput, jobWaitInput } from "./jobs.ts";

/** Tool name → its arktype input and output types. The generator and the validators read this. */
export const toolSchemas: Record<string, { input: Type; output: Type }> = {
  route: { input: routeInput, output: routeOutput },
  list_tiers: { input: listTiersInput, output: listTiersOutput },
  router_dry_run: { input: dryRunInput, output: dryRunOutput },
  init_status: { input: initStatusInput, output: initStatusOutput },
  init_preview: { input: initPreviewInput, output: initPreviewOutput },
  init_apply: { input: initApplyInput, output: initApplyOutput },
  consult: { input: consultInput, output: consultOutput },
  list_agents: { input: listAgentsInput, output: listAgentsOutput },
  get_consultation: { input: getConsultationInput, output: getConsultationOutput },
  job_status: { input: jobStatusInput, output: jobOutput },
  job_wait: { input: jobWaitInput, output: jobOutput },
  job_cancel: { input: jobCancelInput, output: jobOutput },
  delete_consultation: { input: deleteOneInput, output: deletionOutput },
  delete_run: { input: deleteOneInput, output: deletionOutput },
  request_delete_all: { input: requestDeleteAllInput, output: requestDeleteAllOutput },
  confirm_delete_all: { input: confirmDeleteAllInput, output: deletionOutput },
};
