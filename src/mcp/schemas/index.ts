import type { Type } from "arktype";
import { dryRunInput, dryRunOutput, listTiersInput, listTiersOutput, routeInput, routeOutput } from "./core.ts";
import { jobCancelInput, jobOutput, jobStatusInput, jobWaitInput } from "./jobs.ts";

/** Tool name → its arktype input and output types. The generator and the validators read this. */
export const toolSchemas: Record<string, { input: Type; output: Type }> = {
  route: { input: routeInput, output: routeOutput },
  list_tiers: { input: listTiersInput, output: listTiersOutput },
  router_dry_run: { input: dryRunInput, output: dryRunOutput },
  job_status: { input: jobStatusInput, output: jobOutput },
  job_wait: { input: jobWaitInput, output: jobOutput },
  job_cancel: { input: jobCancelInput, output: jobOutput },
};
