/** The ask job kind: how an ask job's reply reads as a tool answer, live or read back from the store — the same envelope either way. */
import { shapedKind } from "../../jobs/shaped.ts";
import { outcomeOf } from "./outcome.ts";

export const askKind = shapedKind(outcomeOf, async () => (await import("./schema.ts")).askJobResult);
