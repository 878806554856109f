import { type } from "arktype";
import { errorInfo } from "../shared.ts";

const jobId = type("0 < string <= 64");

export const jobStatusInput = type({ "+": "reject", id: jobId });
export const jobWaitInput = type({ "+": "reject", id: jobId, "waitSec?": "0 <= number <= 50" });
export const jobCancelInput = type({ "+": "reject", id: jobId });

export const jobOutput = type({
  ok: "boolean",
  "id?": "string",
  "kind?": "string",
  "status?": "'running' | 'ok' | 'failed' | 'cancelled'",
  "progress?": "string | null",
  "partialOutput?": "string | null",
  "treeChanged?": "boolean | null",
  "result?": "object | null",
  "error?": errorInfo,
});
