/** job_status / job_wait / job_cancel: for clients without MCP Tasks, and for calls that outgrew the client's timeout. */
import { defineTool } from "../../define.ts";

const schema = () => import("./schema.ts");
const handlers = () => import("./handler.ts");

export const jobTools = [
  defineTool({
    name: "job_status",
    group: "jobs",
    description: "Status, latest progress and partial output of a background job (from route/consult with background: true, or a call that turned into a job).",
    annotations: { title: "Job status", readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    schemas: async () => {
      const s = await schema();
      return { input: s.jobStatusInput, output: s.jobOutput };
    },
    handler: async () => (await handlers()).jobStatus,
  }),
  defineTool({
    name: "job_wait",
    group: "jobs",
    description:
      "Wait up to waitSec (≤ 50) for a background job to finish; returns its result when done, else its progress. Call again while status is running.",
    annotations: { title: "Wait for a job", readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    schemas: async () => {
      const s = await schema();
      return { input: s.jobWaitInput, output: s.jobOutput };
    },
    handler: async () => (await handlers()).jobWait,
  }),
  defineTool({
    name: "job_cancel",
    group: "jobs",
    description: "Cancel a running job: ends its whole process group and records it cancelled with its partial output.",
    annotations: { title: "Cancel a job", readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    schemas: async () => {
      const s = await schema();
      return { input: s.jobCancelInput, output: s.jobOutput };
    },
    handler: async () => (await handlers()).jobCancel,
  }),
];
