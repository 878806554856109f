/**
 * The `http` backend: a model reached over a provider's HTTP API rather than a CLI. It is not in
 * the registry (backends/index.ts): everything derived from BACKENDS — the config's `backend:`
 * enum, the doctor's install and sign-in probes, the wizard, host detection, route's tiers —
 * describes a program on PATH with argv, a process group and a login command, and none of that
 * exists here. A `backend: http` agent would be a route target that could not touch a working
 * tree. So this folder stands beside the CLIs with the same discipline (pure request builders and
 * incremental stream parsers, no I/O, importing only backends/events.ts and its own files), and
 * the ask service is its one user, through runner/transports/http.ts.
 */
import { anthropicWire } from "./anthropic.ts";
import { openaiWire } from "./openai.ts";
import type { Wire, WireFormat } from "./types.ts";

export const WIRES: Record<WireFormat, Wire> = { openai: openaiWire, anthropic: anthropicWire };

export function wireFor(format: WireFormat): Wire {
  return WIRES[format];
}

export type { ParsedReply, Wire, WireFormat } from "./types.ts";
export { classifyExchange, retryAfterOf } from "./classify.ts";
export { resolveEndpoint } from "./providers.ts";
