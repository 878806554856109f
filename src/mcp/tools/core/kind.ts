/** The route job kind: how a route's result reads as a tool answer, live or read back from the store. */
import { outcomeOf, shapedKind } from "../../jobs/shaped.ts";
import { formatRoute, type RouteOutput } from "./format.ts";

export const routeKind = shapedKind(
  (outcome: RouteOutput) => {
    const { ok, error, ...data } = outcome;
    return outcomeOf(ok, error, data, formatRoute(outcome), "route");
  },
  async () => (await import("./schema.ts")).routeOutput,
);
