/**
 * The ACP transport: a delegate is an agent that speaks the Agent Client Protocol (JSON-RPC over
 * stdio) — gemini --acp, opencode acp, copilot --acp, claude-agent-acp, codex-acp, or any agent
 * configured as `backend: acp` with its launch command. Preparing finds the executable and builds
 * the launch (the backend's ACP profile: its argv, its own isolation switches, its environment);
 * running it is one process group per attempt (process/), one conversation over its stdio
 * (acp-session.ts, on the official SDK), and every step of it written as a record line
 * (backends/acp/records.ts) that the runner's stream parses like any CLI's stdout.
 *
 * The SDK is imported when a run starts, never before: nothing on the way to the first
 * tools/list loads it.
 */
import { homedir } from "node:os";
import { acpSpeaker } from "../../backends/acp/index.ts";
import type { AcpProfile, HomeOverlay, RunRequest } from "../../backends/contract.ts";
import type { AgentConfig } from "../../config/types.ts";
import { childEnv } from "../../process/env.ts";
import { resolveCommand } from "../../process/resolve.ts";
import { buildHomeOverlay } from "../home-overlay.ts";
import { mcpIsolation } from "../mcp-isolation.ts";
import { providerConfig } from "../provider-config.ts";
import { readinessOf } from "../readiness.ts";
import { holdForSessionMinute } from "./acp-minute.ts";
import { runConversation, type Launch } from "./acp-session.ts";
import type { Channel, PrepareInput, Prepared, Transport } from "./types.ts";

export const acpTransport: Transport = { kind: "acp", prepare };

async function prepare(input: PrepareInput): Promise<Prepared> {
  const built = await acpLaunch(input);
  if (!built.ok) return built;
  const { launch, request, overlay, profile } = built;
  return { ok: true, request, channel: acpChannel(launch, request, input, profile, overlay), speaks: acpSpeaker(profile) };
}

export type BuiltLaunch = { ok: true; launch: Launch; request: RunRequest; profile: AcpProfile; overlay?: HomeOverlay } | Extract<Prepared, { ok: false }>;

/** The executable found, the request completed, the argv and environment the agent starts with. */
export async function acpLaunch({ agent, adapter, request, env }: PrepareInput): Promise<BuiltLaunch> {
  const profile = adapter.acp;
  if (!profile) return { ok: false, failure: "not_installed", reason: `${adapter.backend} has no ACP profile` };
  const [name, ...launchArgs] = launchOf(agent, profile);
  if (!name) return { ok: false, failure: "not_installed", reason: `${agent.id} names no ACP launch command` };
  const agentEnv = { ...env, ...agent.env };
  const command = resolveCommand(name, { env: agentEnv, homeDirs: adapter.installDirs });
  if (!command) return { ok: false, failure: "not_installed", reason: `${name} was not found on PATH or in the usual install locations` };
  // Signed out, found before launch where the agent would not say so itself: a fast, clean failure.
  if (profile.preflight && adapter.preflight && (await readinessOf(adapter, command.path, agentEnv)) === "not_ready")
    return { ok: false, failure: "auth", reason: "unavailable", target: command.path };
  // An answer-only run's cwd is an emptied scratch dir: only a route's cwd can hold a repo config.
  const cwd = request.mode === "route" ? request.cwd : undefined;
  const full: RunRequest = { ...request, ...mcpIsolation(adapter, agentEnv, cwd, request.mode), ...providerConfig(adapter, agentEnv, cwd, request.mode) };
  const home = agentEnv.HOME ?? homedir();
  const launch: Launch = {
    command: command.path,
    args: [...launchArgs, ...(profile.args?.(full) ?? [])],
    env: childEnv(agentEnv, profile.env?.(full, { ...agentEnv, HOME: home }) ?? {}),
    name,
  };
  // The headless private settings copy (gemini's retry cap) serves the ACP mode too.
  const overlay = adapter.homeOverlay?.({ env: agentEnv, home, request: full });
  return { ok: true, launch, request: full, profile, ...(overlay ? { overlay } : {}) };
}

/**
 * The backend's launch, with the agent's command over it: a bare executable replaces only the
 * executable (`gemini` at another path still needs `--acp`), a list replaces the whole launch.
 */
function launchOf(agent: AgentConfig, profile: AcpProfile): string[] {
  if (agent.command === undefined) return profile.launch;
  if (agent.commandArgs === undefined && profile.launch.length > 0) return [agent.command, ...profile.launch.slice(1)];
  return [agent.command, ...(agent.commandArgs ?? [])];
}

function acpChannel(launch: Launch, request: RunRequest, { agent, adapter }: PrepareInput, profile: AcpProfile, overlay: HomeOverlay | undefined): Channel {
  return {
    target: launch.command,
    run: async (given) => {
      // A resume in its session file's own minute waits for the minute to turn (acp-minute.ts).
      const held = await holdForSessionMinute({
        files: profile.sessionFiles,
        sessionId: request.resumeSessionId,
        env: launch.env,
        home: launch.env.HOME ?? homedir(),
        backend: adapter.backend,
        io: given,
      });
      if ("end" in held) return held.end;
      const home = overlay ? buildHomeOverlay(overlay) : undefined;
      try {
        return await runConversation({
          launch: home && overlay ? { ...launch, env: { ...launch.env, [overlay.envVar]: home.dir } } : launch,
          request,
          profile,
          mode: agent.modes?.[request.mode] ?? profile.modes?.[request.mode],
          routePermissions: agent.permissions ?? "allow",
          io: held.io,
        });
      } finally {
        home?.remove();
      }
    },
  };
}
