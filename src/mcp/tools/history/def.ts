/**
 * Deleting stored history, advertised only with ORCHESTRATE_HISTORY_TOOLS=1 (an opt-in group:
 * most sessions never need it, and a model should not see delete verbs it was not offered).
 * Only orchestrate's own rows go; each reply names where the CLIs keep their own transcripts.
 */
import { defineTool } from "../../define.ts";

const DESTRUCTIVE = { readOnlyHint: false, destructiveHint: true, openWorldHint: false } as const;

const schema = () => import("./schema.ts");
const handlers = () => import("./handler.ts");

/** One of the four delete-one tools: the same schemas and annotations, its own kind of row. */
function deleteOne(name: string, title: string, description: string, handler: "deleteConsultation" | "deleteRun" | "deleteReview" | "deleteAsk") {
  return defineTool({
    name,
    group: "history",
    description,
    annotations: { title, ...DESTRUCTIVE, idempotentHint: true },
    schemas: async () => {
      const s = await schema();
      return { input: s.deleteOneInput, output: s.deletionOutput };
    },
    handler: async () => (await handlers())[handler],
  });
}

export const historyTools = [
  deleteOne(
    "delete_consultation",
    "Delete a consultation",
    "Delete one stored consultation (its turns and usage) from orchestrate's local history. The consulted CLI keeps its own session files.",
    "deleteConsultation",
  ),
  deleteOne("delete_run", "Delete a run", "Delete one finished route run (its attempts and usage) from orchestrate's local history.", "deleteRun"),
  deleteOne(
    "delete_review",
    "Delete a review",
    "Delete one stored review (its plan, reviewers' replies and findings) from orchestrate's local history. The reviewers' CLIs keep their own session files.",
    "deleteReview",
  ),
  deleteOne(
    "delete_ask",
    "Delete an ask",
    "Delete one stored ask (its legs and usage) from orchestrate's local history. The provider keeps whatever its own logs keep.",
    "deleteAsk",
  ),
  defineTool({
    name: "request_delete_all",
    group: "history",
    description:
      "Step 1 of deleting all history of a kind (consultations, runs, reviews, asks, jobs or all): deletes nothing, returns what would go and a one-time token valid 5 minutes. Show the counts to the person before confirm_delete_all.",
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
