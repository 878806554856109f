import { type } from "arktype";
import { errorInfo } from "../shared.ts";

/** The proposed config, in the unified file shape (the same keys as config.yaml). */
const spec = type("Record<string, unknown>");
const risk = type({ code: "string", message: "string" });

export const initStatusInput = type({ "+": "reject" });

export const initStatusOutput = type({
  ok: "boolean",
  config: { exists: "boolean", valid: "boolean", pendingExists: "boolean" },
  backends: type({
    backend: "string",
    installed: "boolean",
    "version?": "string",
    compatible: "boolean",
    missingFlags: "string[]",
    readiness: "'ready' | 'not_ready' | 'unknown'",
  }).array(),
  /** What each CLI itself listed: untrusted, never a default. */
  models: "Record<string, string[]>",
  tiers: { light: "boolean", standard: "boolean", heavy: "boolean" },
  capabilities: "string[]",
  "error?": errorInfo,
});

export const initPreviewInput = type({ "+": "reject", spec });

export const initPreviewOutput = type({
  ok: "boolean",
  "diff?": "string",
  "risks?": risk.array(),
  "errors?": "string[]",
  "error?": errorInfo,
});

export const initApplyInput = type({ "+": "reject", spec });

export const initApplyOutput = type({
  ok: "boolean",
  "staged?": "string",
  "diff?": "string",
  "risks?": risk.array(),
  "next?": "string",
  "errors?": "string[]",
  "error?": errorInfo,
});
