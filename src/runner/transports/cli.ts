/**
 * The CLI transport: a delegate is an executable. Preparing finds it (PATH, then the usual install
 * dirs), reads which build it is (refusing builds orchestrate cannot drive), asks its readiness
 * probe first where the backend says an unauthenticated run would not fail fast, switches the
 * user's own MCP servers off by name, and reads which model provider the CLI's config selects.
 * Running it is process/: its own process group, registered among the live groups (shutdown ends
 * it), stdout parsed line by line as it arrives, stderr kept as a bounded ring (and read line by
 * line by backends that announce retries there).
 */
import { homedir } from "node:os";
import type { Adapter, Env, HomeOverlay, Invocation, RunRequest } from "../../backends/contract.ts";
import { argvFits } from "../../process/argv-limit.ts";
import { childEnv } from "../../process/env.ts";
import type { StopReason as ProcessStopReason } from "../../process/live.ts";
import { resolveCommand } from "../../process/resolve.ts";
import { runProcess, type ProcessResult } from "../../process/spawn.ts";
import { buildHomeOverlay } from "../home-overlay.ts";
import { mcpIsolation } from "../mcp-isolation.ts";
import { providerConfig } from "../provider-config.ts";
import { readinessOf } from "../readiness.ts";
import { variantOf, variantTraits } from "../variant.ts";
import type { Channel, PrepareInput, Prepared, StopReason, StreamIO, Transport, TransportEnd } from "./types.ts";

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
  if (adapter.preflight && (await readinessOf(adapter, command.path, agentEnv, { probes: traits.probes })) === "not_ready")
    return { ok: false, failure: "auth", reason: "unavailable", target: command.path };
  const full = completeRequest(adapter, request, variant, agentEnv);
  const invocation = adapter.invocation(full);
  const tooLarge = argvProblem(adapter, command.path, invocation, agentEnv, full.prompt);
  if (tooLarge) return { ok: false, failure: "prompt_too_large", reason: tooLarge, target: command.path };
  const overlay = adapter.homeOverlay?.({ env: agentEnv, home: agentEnv.HOME ?? homedir(), request: full });
  return { ok: true, request: full, channel: cliChannel(command.path, invocation, full.cwd, agentEnv, overlay) };
}

/**
 * An argv the kernel would refuse (E2BIG) is refused here, before anything starts: spawned, it
 * would read as "could not start", i.e. not installed — a silent fallback and a cooldown for a
 * CLI that is fine. The prompt is the only unbounded argument, so it is what did not fit.
 */
function argvProblem(adapter: Adapter, command: string, invocation: Invocation, env: Env, prompt: string): string | undefined {
  const fit = argvFits([command, ...invocation.args], childEnv(env, invocation.env ?? {}));
  if (fit.ok) return undefined;
  const kib = (bytes: number) => `${Math.ceil(bytes / 1024)} KiB`;
  const how = adapter.promptOnArgv
    ? `${adapter.backend} takes its prompt only as a command-line argument`
    : `${adapter.backend}'s command line carries the prompt`;
  return `the prompt (${kib(Buffer.byteLength(prompt, "utf8"))}) is too large: ${how}, and ${fit.why} (${kib(fit.bytes)} > ${kib(fit.limit)}); nothing was started`;
}

/** The request with what only the installed CLI and its config can tell: its build and the user's MCP servers. */
function completeRequest(adapter: Adapter, request: RunRequest, variant: string | undefined, env: Env): RunRequest {
  // An answer-only run's cwd is an emptied scratch dir: only a route's cwd can hold a repo config.
  const cwd = request.mode === "route" ? request.cwd : undefined;
  return {
    ...request,
    ...(variant !== undefined ? { variant } : {}),
    ...mcpIsolation(adapter, env, cwd, request.mode),
    ...providerConfig(adapter, env, cwd, request.mode),
  };
}

function cliChannel(command: string, invocation: Invocation, cwd: string, env: Env, overlay: HomeOverlay | undefined): Channel {
  return {
    target: command,
    run: async (io) => {
      // The backend's private settings copy exists only while this run does.
      const home = overlay ? buildHomeOverlay(overlay) : undefined;
      try {
        return await runInvocation(command, invocation, cwd, home && overlay ? { ...env, [overlay.envVar]: home.dir } : env, io);
      } finally {
        home?.remove();
      }
    },
  };
}

function runInvocation(command: string, invocation: Invocation, cwd: string, env: Env, io: StreamIO): Promise<TransportEnd> {
  return runProcess({
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
  }).then(endOf);
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
