/**
 * Google Antigravity CLI (`agy`), headless print mode with `--output-format stream-json`.
 * Built from Google's documentation and third-party captures of agy 1.1.10–1.2.17; agy is a
 * closed Go binary no installer here reaches, so nothing in this folder was checked against a
 * real run. `agy --version` is read first (./probes.ts, ./variant.ts): builds
 * before 1.1.10 are refused, never driven.
 *
 * One run: the prompt on stdin with no -p (docs/backends/agy.md: no argv limit, not in `ps`),
 * stream-json out (./parse.ts), classification from the stream and stderr (./classify.ts); argv
 * and environment in ./invocation.ts.
 */
import type { Adapter } from "../contract.ts";
import { classifyAgy, explainAgy } from "./classify.ts";
import { agyInvocation } from "./invocation.ts";
import { agyMachine } from "./machine.ts";
import { parseAgyLine, parseAgyStderr } from "./parse.ts";
import { agyProbes, agyReadiness, agyVariant } from "./probes.ts";

export const agyAdapter: Adapter = {
  backend: "agy",
  provider: { kind: "fixed", provider: "google" },
  ...agyMachine,
  invocation: agyInvocation,
  parse: parseAgyLine,
  parseStderr: parseAgyStderr,
  classify: classifyAgy,
  explain: explainAgy,
  probes: agyProbes,
  readiness: agyReadiness,
  // Signed out, a print run can sit ~60 s in an OAuth wait; `agy models` answers in ~1.5 s.
  preflight: true,
  supportsResume: true,
  variant: agyVariant,
};
