/**
 * The CLI transport: a delegate is an executable. Preparing finds it (PATH, then the usual install
 * dirs), reads which build it is (refusing builds orchestrate cannot drive), asks its readiness
 * probe first where the backend says an unauthenticated run would not fail fast, switches the
 * user's own MCP servers off by name, and reads which model provider the CLI's config selects.
 * Running it is process/: its own process group, registered among the live groups (shutdown ends
 * it), stdout parsed line by line as it arrives, stderr kept as a bounded ring (and read line by
 * line by backends that announce retries there).
 */
import type { Adapter, Env, Invocation, RunRequest } from "../../backends/contract.ts";
import { childEnv } from "../../process/env.ts";
import type { StopReason as ProcessStopReason } from "../../process/live.ts";
import { resolveCommand } from "../../process/resolve.ts";
import { runProcess, type ProcessResult } from "../../process/spawn.ts";
import { mcpIsolation } from "../mcp-isolation.ts";
import { providerConfig } from "../provider-config.ts";
import { readinessOf } from "../readiness.ts";
import { variantOf, variantTraits } from "../variant.ts";
import type { Channel, PrepareInput, Prepared, StopReason, Transport, TransportEnd } from "./types.ts";

export const cliTransport: Transport = { kind: "cli", prepare };

async function prepare({ agent, adapter, request, env }: PrepareInput): Promise<Prepared> {
  const name = agent.command ?? agent.backend;
  const command = resolveCommand(name, { env, homeDirs: adapter.installDirs });
  if (!command) return { ok: false, failure: "not_installed", reason: `${name} was not found on PATH or in the usual install locations` };
  const agentEnv = { ...env, ...agent.env };
  const variant = await variantOf(adapter, command.path, agentEnv);
  const traits = variantTraits(adapter, variant);
  if (traits.refuse) return { ok: false, failure: "not_installed", reason: traits.refuse, target: command.path };
  // Signed out, found before launch: a fast, clean auth failure. Never "not signed in" in a trace:
  // it would leak per-provider credential health.
  if (adapter.preflight && (await readinessOf(adapter, command.path, agentEnv, { probes: traits.probes })) === "not_ready") return { ok: false, failure: "auth", reason: "unavailable", target: command.path };
  const full = completeRequest(adapter, request, variant, agentEnv);
  return { ok: true, request: full, channel: cliChannel(command.path, adapter.invocation(full), full.cwd, agentEnv) };
}

/** The request with what only the installed CLI and its config can tell: its build and the user's MCP servers. */
function completeRequest(adapter: Adapter, request: RunRequest, variant: string | undefined, env: Env): RunRequest {
  // An answer-only run's cwd is an emptied scratch dir: only a route's cwd can hold a repo config.
  const cwd = request.mode === "route" ? request.cwd : undefined;
  return { ...request, ...(variant !== undefined ? { variant } : {}), ...mcpIsolation(adapter, env, cwd, request.mode), ...providerConfig(adapter, env, cwd, request.mode) };
}

function cliChannel(command: string, invocation: Invocation, cwd: string, env: Env): Channel {
  return {
    target: command,
    run: async (io) =>
      endOf(
        await runProcess({
          command,
          args: invocation.args,
          cwd,
          env: childEnv(env, invocation.env ?? {}),
          ...(invocation.stdin !== undefined ? { stdin: invocation.stdin } : {}),
          timeoutMs: io.timeoutMs,
          ...(io.stallMs ? { stallMs: io.stallMs } : {}),
          signal: io.signal,
          onLine: io.onLine,
          ...(io.onStderrLine ? { onStderrLine: io.onStderrLine } : {}),
        }),
      ),
  };
}

function endOf(result: ProcessResult): TransportEnd {
  return {
    endReason: result.endReason,
    exitCode: result.exitCode,
    signal: result.signal,
    ...(result.spawnError ? { startError: result.spawnError } : {}),
    stderrTail: result.stderrTail,
    rawStdoutTail: result.rawStdoutTail,
  };
}

/**
 * Compile-time check that the runner's stop reasons are exactly those process/ records: an abort
 * reason it did not know would be recorded as a plain "cancelled".
 */
type Exactly<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
true satisfies Exactly<StopReason, ProcessStopReason>;
