/**
 * Deleting stored history, advertised only with ORCHESTRATE_HISTORY_TOOLS=1 (an opt-in group:
 * most sessions never need it, and a model should not see delete verbs it was not offered).
 * Only orchestrate's own rows go; each reply names where the CLIs keep their own transcripts.
 */
import { defineTool } from "../../define.ts";

const DESTRUCTIVE = { readOnlyHint: false, destructiveHint: true, openWorldHint: false } as const;

const schema = () => import("./schema.ts");
const handlers = () => import("./handler.ts");

export const historyTools = [
  defineTool({
    name: "delete_consultation",
    group: "history",
    description: "Delete one stored consultation (its turns and usage) from orchestrate's local history. The consulted CLI keeps its own session files.",
    annotations: { title: "Delete a consultation", ...DESTRUCTIVE, idempotentHint: true },
    schemas: async () => {
      const s = await schema();
      return { input: s.deleteOneInput, output: s.deletionOutput };
    },
    handler: async () => (await handlers()).deleteConsultation,
  }),
  defineTool({
    name: "delete_run",
    group: "history",
    description: "Delete one finished route run (its attempts and usage) from orchestrate's local history.",
    annotations: { title: "Delete a run", ...DESTRUCTIVE, idempotentHint: true },
    schemas: async () => {
      const s = await schema();
      return { input: s.deleteOneInput, output: s.deletionOutput };
    },
    handler: async () => (await handlers()).deleteRun,
  }),
  defineTool({
    name: "delete_review",
    group: "history",
    description: "Delete one stored review (its plan, reviewers' replies and findings) from orchestrate's local history. The reviewers' CLIs keep their own session files.",
    annotations: { title: "Delete a review", ...DESTRUCTIVE, idempotentHint: true },
    schemas: async () => {
      const s = await schema();
      return { input: s.deleteOneInput, output: s.deletionOutput };
    },
    handler: async () => (await handlers()).deleteReview,
  }),
  defineTool({
    name: "delete_ask",
    group: "history",
    description: "Delete one stored ask (its legs and usage) from orchestrate's local history. The provider keeps whatever its own logs keep.",
    annotations: { title: "Delete an ask", ...DESTRUCTIVE, idempotentHint: true },
    schemas: async () => {
      const s = await schema();
      return { input: s.deleteOneInput, output: s.deletionOutput };
    },
    handler: async () => (await handlers()).deleteAsk,
  }),
  defineTool({
    name: "request_delete_all",
    group: "history",
    description: "Step 1 of deleting all history of a kind (consultations, runs, reviews, asks, jobs or all): deletes nothing, returns what would go and a one-time token valid 5 minutes. Show the counts to the person before confirm_delete_all.",
    annotations: { title: "Request deleting all history", readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    schemas: async () => {
      const s = await schema();
      return { input: s.requestDeleteAllInput, output: s.requestDeleteAllOutput };
    },
    handler: async () => (await handlers()).requestDeleteAll,
  }),
  defineTool({
    name: "confirm_delete_all",
    group: "history",
    description: "Step 2: delete all history of the kind the token was issued for. Only after the person agreed to the counts request_delete_all showed.",
    annotations: { title: "Confirm deleting all history", ...DESTRUCTIVE, idempotentHint: false },
    schemas: async () => {
      const s = await schema();
      return { input: s.confirmDeleteAllInput, output: s.deletionOutput };
    },
    handler: async () => (await handlers()).confirmDeleteAll,
  }),
];
