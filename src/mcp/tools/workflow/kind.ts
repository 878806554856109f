/** The workflow_step job kind: how a delegated step's end reads as a tool answer, live or read back from the store. */
import { outcomeOf, shapedKind } from "../../jobs/shaped.ts";
import type { workflowStepOutput } from "./schema.ts";

type StepOutput = typeof workflowStepOutput.infer;

export const workflowStepKind = shapedKind(
  (outcome: StepOutput) => {
    const { ok, error, ...data } = outcome;
    const said = ok
      ? `Step ${data.step} ${data.status}. Call workflow_status for what comes next.`
      : `Step ${data.step} failed: ${error?.message ?? "no reason was recorded"}.`;
    const text = data.store_notice ? `${said}\nNotice: ${data.store_notice}` : said;
    return outcomeOf(ok, error, data, text, "workflow_step");
  },
  async () => (await import("./schema.ts")).workflowStepOutput,
);
