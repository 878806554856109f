/**
 * Everything before the stream: the transport finds the delegate, checks it can answer and
 * completes the request; then, for a route, the tree is fingerprinted. A refusal here is a clean
 * failure that started nothing.
 */
import type { Adapter, Env, FailureClass, RunRequest } from "../backends/contract.ts";
import type { AgentConfig } from "../config/types.ts";
import { bookkeepingPaths, treeState, type TreeState } from "./tree.ts";
import type { Channel, Speaker, Transport } from "./transports/types.ts";

export interface PrepareSpec {
  agent: AgentConfig;
  adapter: Adapter;
  request: RunRequest;
  env: Env;
  /** The attempt's wall-clock budget. */
  timeoutMs: number;
  /** Fingerprint the cwd before (and, later, after). */
  fingerprint: boolean;
}

export interface PreparedAttempt {
  channel: Channel;
  /** The request as completed by the runner (budget) and the transport (installed build, MCP isolation). */
  request: RunRequest;
  /** Left out of both fingerprints. */
  ignorePaths: string[];
  /** The transport's own reading of its stream; absent: the backend's. */
  speaks?: Speaker;
  before?: TreeState;
}

export type PrepareOutcome = { ok: true; value: PreparedAttempt } | { ok: false; failure: FailureClass; reason: string; target?: string };

export async function prepareAttempt(spec: PrepareSpec, transport: Transport): Promise<PrepareOutcome> {
  // CLIs with a clock of their own (agy's --print-timeout) get it raised to the budget; ours still decides.
  const request = { ...spec.request, timeoutSec: Math.ceil(spec.timeoutMs / 1000) };
  const prepared = await transport.prepare({ agent: spec.agent, adapter: spec.adapter, request, env: spec.env });
  if (!prepared.ok) return prepared;
  const ignorePaths = bookkeepingPaths(spec.adapter, prepared.request);
  const before = spec.fingerprint ? await treeState(prepared.request.cwd, ignorePaths) : undefined;
  return {
    ok: true,
    value: {
      channel: prepared.channel,
      request: prepared.request,
      ignorePaths,
      ...(before ? { before } : {}),
      ...(prepared.speaks ? { speaks: prepared.speaks } : {}),
    },
  };
}
