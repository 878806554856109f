/**
 * The review tools (seed 001: plan → one-time token → run → finalize), advertised only when the
 * config has a consult.review block (tools/index.ts). Schemas and handlers load on the first call.
 */
import { defineTool } from "../../define.ts";
import reviewDescription from "./review.txt" with { type: "text" };
import runDescription from "./review_run.txt" with { type: "text" };
import finalizeDescription from "./review_finalize.txt" with { type: "text" };

const schema = () => import("./schema.ts");
const handlers = () => import("./handler.ts");

const READS = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

export const reviewTools = [
  defineTool({
    name: "review",
    group: "review",
    description: reviewDescription,
    annotations: { title: "Plan a review", readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    schemas: async () => {
      const s = await schema();
      return { input: s.reviewInput, output: s.reviewPlanOutput };
    },
    handler: async () => (await handlers()).review,
  }),
  defineTool({
    name: "review_run",
    group: "review",
    description: runDescription,
    annotations: { title: "Run a planned review", readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    task: true,
    schemas: async () => {
      const s = await schema();
      return { input: s.reviewRunInput, output: s.reviewOutput };
    },
    handler: async () => (await handlers()).reviewRun,
  }),
  defineTool({
    name: "review_finalize",
    group: "review",
    description: finalizeDescription,
    annotations: { title: "Finalize a review", readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    schemas: async () => {
      const s = await schema();
      return { input: s.reviewFinalizeInput, output: s.reviewOutput };
    },
    handler: async () => (await handlers()).reviewFinalize,
  }),
  defineTool({
    name: "review_retry",
    group: "review",
    description:
      "Re-ask a review's failed or unparseable reviewers (all of them, or those named) under the same approved scope; refused if the material changed.",
    annotations: { title: "Retry reviewers", readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    task: true,
    schemas: async () => {
      const s = await schema();
      return { input: s.reviewRetryInput, output: s.reviewOutput };
    },
    handler: async () => (await handlers()).reviewRetry,
  }),
  defineTool({
    name: "review_get",
    group: "review",
    description: "A review by id: its plan, each reviewer's outcome, every finding by id with its disposition, and what to do next. Sends nothing.",
    annotations: { title: "Show a review", ...READS },
    schemas: async () => {
      const s = await schema();
      return { input: s.reviewIdInput, output: s.reviewOutput };
    },
    handler: async () => (await handlers()).reviewGet,
  }),
  defineTool({
    name: "review_list",
    group: "review",
    description: "Stored reviews, newest first, with status and finding counts. Sends nothing.",
    annotations: { title: "List reviews", ...READS },
    schemas: async () => {
      const s = await schema();
      return { input: s.reviewListInput, output: s.reviewListOutput };
    },
    handler: async () => (await handlers()).reviewList,
  }),
  defineTool({
    name: "review_cancel",
    group: "review",
    description: "Cancel a planned or running review: its token dies and running reviewers are stopped; answers already in are kept.",
    annotations: { title: "Cancel a review", readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    schemas: async () => {
      const s = await schema();
      return { input: s.reviewIdInput, output: s.reviewOutput };
    },
    handler: async () => (await handlers()).reviewCancel,
  }),
];
