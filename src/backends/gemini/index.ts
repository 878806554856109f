/**
 * Gemini CLI adapter — written against @google/gemini-cli 0.61.0, `gemini -o stream-json`. Its
 * rules are in docs/backends/gemini.md: argv, trust and the private settings home in
 * ./invocation.ts, the stream and the stderr retry lines in ./parse.ts, the verdict in
 * ./classify.ts, the probes in ./probes.ts, the ACP profile in ./acp.ts.
 */
import type { Adapter } from "../contract.ts";
import { geminiAcp } from "./acp.ts";
import { classifyGemini, explainGeminiFailure } from "./classify.ts";
import { geminiHomeOverlay, geminiInvocation } from "./invocation.ts";
import { geminiMachine } from "./machine.ts";
import { parseGeminiLine, parseGeminiStderr } from "./parse.ts";
import { geminiProbes } from "./probes.ts";

export const geminiAdapter: Adapter = {
  backend: "gemini",
  acp: geminiAcp,
  provider: { kind: "fixed", provider: "google" },
  // Its answer mode offers google_web_search either way: ungranted, a search fails the turn closed.
  web: { tools: "google_web_search" },
  ...geminiMachine,
  invocation: geminiInvocation,
  homeOverlay: geminiHomeOverlay,
  parse: parseGeminiLine,
  parseStderr: parseGeminiStderr,
  classify: classifyGemini,
  explain: explainGeminiFailure,
  probes: geminiProbes,
  supportsResume: true,
};
