/**
 * Adapter for the pi coding agent, both release lines: `@mariozechner/pi-coding-agent` 0.73.1
 * (Node 20) and `@earendil-works/pi-coding-agent` 1.6.0 (Node ≥ 22.19), in `--mode json` with the
 * prompt on stdin. Its rules are in docs/backends/pi.md; the line is probed with `pi --version`
 * (probes.ts). A pi agent must declare its provider: one pi serves any provider, and a model id
 * names none.
 */
import type { Adapter } from "../contract.ts";
import { classifyPi, explainPi } from "./classify.ts";
import { piInvocation } from "./invocation.ts";
import { piMachine } from "./machine.ts";
import { parsePiLine } from "./parse.ts";
import { piProbesFor, piReadiness, piVariant } from "./probes.ts";
import { PI_LINE_0 } from "./variant.ts";

export const piAdapter: Adapter = {
  backend: "pi",
  provider: { kind: "declared" },
  ...piMachine,
  invocation: piInvocation,
  parse: parsePiLine,
  classify: classifyPi,
  explain: explainPi,
  probes: piProbesFor(PI_LINE_0),
  // Unauthenticated pi fails fast (exit 1 in 0.6–1.6 s, no request), so no pre-flight.
  readiness: piReadiness,
  variant: piVariant,
  supportsResume: true,
};
