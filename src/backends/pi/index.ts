/**
 * Adapter for the pi coding agent, both release lines: `@mariozechner/pi-coding-agent` 0.73.1
 * (Node 20) and `@earendil-works/pi-coding-agent` 1.6.0 (Node ≥ 22.19), in `--mode json` with the
 * prompt on stdin. Facts: research/cli-pi.md; the line is probed with `pi --version` (variant.ts).
 * A pi agent must declare its provider: one pi serves any provider, and a model id names none.
 */
import type { Adapter, ProbeOutput, Readiness } from "../contract.ts";
import { parseObject, str } from "../events.ts";
import { classifyPi, explainPi } from "./classify.ts";
import { piInvocation } from "./invocation.ts";
import { piMachine } from "./machine.ts";
import { parsePiLine } from "./parse.ts";
import { PI_LINE_0, piProbesFor, piVariant } from "./variant.ts";

/** Reads `pi auth check --json` (1.x): `{"status":"ready"|"not_ready"|"invalid",…}`, exit 0/1/2. */
export function piReadiness(out: ProbeOutput): Readiness {
  const status = str(parseObject(out.stdout)?.status) ?? out.stdout.trim();
  if (status === "ready") return "ready";
  if (status === "not_ready" || status === "invalid") return "not_ready";
  // Exit 2 without a status is a usage error (no --provider), not a verdict on credentials.
  return out.exitCode === 0 ? "ready" : out.exitCode === 1 ? "not_ready" : "unknown";
}

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

export { piListedModels } from "./machine.ts";
export { piAuthCheckArgv, PI_LINE_0, PI_LINE_1, PI_LINE_1_OLD_NODE, PI_LINE_UNKNOWN } from "./variant.ts";
