/** The consult job kind: how a consult envelope reads as a tool answer, live or read back from the store. */
import { outcomeOf, shapedKind } from "../../jobs/shaped.ts";
import { formatConsult, type ConsultOutput } from "./format.ts";

export const consultKind = shapedKind(
  (envelope: ConsultOutput) => {
    const { ok, error, ...data } = envelope;
    // Seed 002's envelope says error: null when the consultation answered; a failure carries its error.
    return outcomeOf(ok, error ?? undefined, ok ? { ...data, error: null } : data, formatConsult(envelope), "consult");
  },
  async () => (await import("./schema.ts")).consultOutput,
);
