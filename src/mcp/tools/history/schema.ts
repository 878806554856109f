import { type } from "arktype";
import { errorInfo } from "../shared.ts";

const id = type("0 < string <= 64");
const kind = type("'consultations' | 'runs' | 'reviews' | 'asks' | 'jobs' | 'all'");
const counts = type({ consultations: "number", runs: "number", reviews: "number", asks: "number", jobs: "number" });

export const deleteOneInput = type({ "+": "reject", id });

export const deletionOutput = type({
  ok: "boolean",
  "kind?": kind,
  "deleted?": counts,
  "note?": "string",
  "error?": errorInfo,
});

export const requestDeleteAllInput = type({ "+": "reject", kind });

export const requestDeleteAllOutput = type({
  ok: "boolean",
  "token?": "string",
  "kind?": kind,
  "expires_at?": "string",
  "would_delete?": counts,
  "note?": "string",
  "error?": errorInfo,
});

export const confirmDeleteAllInput = type({ "+": "reject", token: "0 < string <= 128" });
