/**
 * Which model actually answered, read where a CLI reveals it beyond its stream (codex: its session
 * rollout; opencode: `opencode export`; copilot: its usage file; Grok Build: its session summary).
 * The backend describes the channel as data; this module does the I/O, best effort: nothing found
 * means "unverified", never a guess.
 */
import { readdirSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { Adapter, Env, RunRequest, SideChannel, SideChannelContext, SideReport } from "../backends/contract.ts";
import { capture } from "../process/capture.ts";
import { resolveCommand } from "../process/resolve.ts";
import { log } from "../log.ts";

const COMMAND_TIMEOUT_MS = 10_000;
const NOTHING: SideReport = { models: [] };

export interface SideInput {
  adapter: Adapter;
  /** The agent's configured command (name or absolute path), for channels that run the CLI. */
  command: string;
  env: Env;
  request: RunRequest;
  sessionId: string | undefined;
}

export async function sideChannelReport(input: SideInput): Promise<SideReport> {
  const channel = input.adapter.sideChannel;
  if (!channel) return NOTHING;
  const ctx: SideChannelContext = { env: input.env, home: input.env.HOME ?? homedir(), request: input.request, sessionId: input.sessionId };
  try {
    return (await read(channel, ctx, input)) ?? NOTHING;
  } catch (error) {
    log.debug(`model identity side channel failed for ${input.adapter.backend}`, error);
    return NOTHING;
  }
}

async function read(channel: SideChannel, ctx: SideChannelContext, input: SideInput): Promise<SideReport | undefined> {
  switch (channel.kind) {
    case "file": {
      const path = channel.path(ctx);
      return path ? channel.read(readFileSync(path, "utf8")) : undefined;
    }
    case "file-search":
      return ctx.sessionId ? searchFile(channel, ctx, ctx.sessionId) : undefined;
    case "command":
      return ctx.sessionId ? runCommand(channel, input, ctx.sessionId) : undefined;
  }
}

/** The file named after the session anywhere under the root (a resumed codex thread keeps its first day's file). */
function searchFile(channel: Extract<SideChannel, { kind: "file-search" }>, ctx: SideChannelContext, sessionId: string): SideReport | undefined {
  const root = channel.root(ctx);
  if (!root) return undefined;
  const hit = readdirSync(root, { recursive: true })
    .map(String)
    .find((f) => channel.matches(f.split("/").at(-1) ?? "", sessionId));
  return hit ? channel.read(readFileSync(join(root, hit), "utf8")) : undefined;
}

async function runCommand(channel: Extract<SideChannel, { kind: "command" }>, input: SideInput, sessionId: string): Promise<SideReport | undefined> {
  const command = resolveCommand(input.command, { env: input.env, homeDirs: input.adapter.installDirs });
  if (!command) return undefined;
  // Sessions belong to the project they ran in: run from the same cwd.
  const out = await capture(command.path, channel.argv(sessionId), input.env, {
    timeoutMs: COMMAND_TIMEOUT_MS,
    cwd: input.request.cwd,
    ...(channel.maxLines ? { maxLines: channel.maxLines } : {}),
  });
  return out.ok ? channel.read(out.stdout) : undefined;
}

/**
 * The models a run reported serving: the stream's, then the side channel's — except that a
 * requested-model record (codex rollout, opencode export) counts only where the stream named no
 * model, since a reroute the stream revealed is what served. Route and consult read it alike.
 */
export function reportedModels(streamModels: readonly string[], side: SideReport): string[] {
  const fromSide = side.requested && streamModels.length > 0 ? [] : side.models;
  return [...new Set([...streamModels, ...fromSide].filter((m) => m !== ""))];
}
