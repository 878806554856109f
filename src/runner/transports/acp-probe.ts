/**
 * `initialize` and nothing else, for `orchestrate check`: which ACP version an agent speaks, what
 * it says it can do, and how it says to sign in. Run in a throw-away cwd, in its own process
 * group, bounded in time; it never opens a session, so it sends nothing to a model. Beside
 * runner/attempt.ts it is the one opener of an ACP launch, and checks the recursion depth the same
 * way (.dependency-cruiser.cjs exempts it by name).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loginHintOf } from "../../backends/acp/index.ts";
import type { Adapter, Env } from "../../backends/contract.ts";
import { asObject, type Json } from "../../backends/events.ts";
import type { AgentConfig } from "../../config/types.ts";
import { type ProcessResult, runProcess } from "../../process/spawn.ts";
import { VERSION } from "../../version.ts";
import { checkDepth } from "../../safety/depth.ts";
import { acpLaunch } from "./acp.ts";
import type { Launch } from "./acp-session.ts";
import { Wire } from "./acp-wire.ts";

export type AcpHandshake =
  | { ok: true; command: string; protocolVersion: number; agent?: string; version?: string; capabilities: string[]; authMethods: string[]; login?: string }
  | { ok: false; command?: string; problem: string };

export async function acpHandshake(agent: AgentConfig, adapter: Adapter, env: Env, maxDepth: number, timeoutMs = 20_000): Promise<AcpHandshake> {
  // The recursion guard holds here as for every attempt: a launch could be orchestrate itself.
  const depth = checkDepth(env, maxDepth);
  if (!depth.ok) return { ok: false, problem: depth.error.message };
  const cwd = mkdtempSync(join(tmpdir(), "orchestrate-acp-check-"));
  try {
    const built = await acpLaunch({ agent, adapter, request: { mode: "answer", prompt: "", cwd }, env });
    if (!built.ok) return { ok: false, problem: built.reason };
    return await initializeOnly(built.launch, cwd, timeoutMs);
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

async function initializeOnly(launch: Launch, cwd: string, timeoutMs: number): Promise<AcpHandshake> {
  const target = launch.command;
  const sdk = await import("@agentclientprotocol/sdk/unstable");
  const wire = new Wire();
  const done = new AbortController();
  const proc = runProcess({
    command: launch.command,
    args: launch.args,
    cwd,
    env: launch.env,
    stdinPipe: (p) => wire.attach(p),
    done: done.signal,
    timeoutMs,
    onLine: (l) => wire.fromAgent(l),
  }).finally(() => wire.close());
  const connection = sdk.client({ name: "orchestrate" }).connect(sdk.ndJsonStream(wire.writable, wire.readable));
  const answered = connection.agent
    .request("initialize", {
      protocolVersion: sdk.PROTOCOL_VERSION,
      clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: false },
      clientInfo: { name: "orchestrate", version: VERSION },
    })
    .then(
      (init): AcpHandshake => ({
        ok: true,
        command: target,
        protocolVersion: init.protocolVersion,
        ...info(init.agentInfo),
        capabilities: capabilitiesOf(asObject(init.agentCapabilities) ?? {}),
        authMethods: (init.authMethods ?? []).map((m) => m.id),
        ...login(init.authMethods, launch.name),
      }),
    )
    .catch(
      (error: unknown): AcpHandshake => ({
        ok: false,
        command: target,
        problem: `it did not answer ACP's initialize (${error instanceof Error ? error.message : String(error)})`,
      }),
    );
  const result = await Promise.race([answered, proc.then((end): AcpHandshake => ({ ok: false, command: target, problem: unanswered(end, timeoutMs) }))]);
  wire.endInput();
  done.abort();
  await proc;
  connection.close();
  return result;
}

/** Why no answer came: its time ran out (gemini re-launches itself first), or it ended, with its own words. */
function unanswered(end: ProcessResult, timeoutMs: number): string {
  if (end.endReason === "timeout") return `it did not answer ACP's initialize within ${Math.round(timeoutMs / 1000)} s`;
  const said = end.stderrTail.trim().split("\n").at(-1)?.slice(0, 200);
  const how = end.exitCode !== null ? `exit ${end.exitCode}` : `signal ${end.signal ?? "?"}`;
  return `it exited before answering ACP's initialize (${how})${said ? `: ${said}` : ""}`;
}

function info(agentInfo: { name?: string; version?: string } | null | undefined): { agent?: string; version?: string } {
  return { ...(agentInfo?.name ? { agent: agentInfo.name } : {}), ...(agentInfo?.version ? { version: agentInfo.version } : {}) };
}

function login(methods: unknown, launch: string): { login?: string } {
  const hint = loginHintOf(methods, launch);
  return hint ? { login: hint } : {};
}

/** `loadSession`, `prompt:image`, `mcp:http`, `session:resume`, …: each true capability once. */
function capabilitiesOf(caps: Json): string[] {
  const out = caps.loadSession === true ? ["loadSession"] : [];
  for (const [group, key] of [
    ["prompt", "promptCapabilities"],
    ["mcp", "mcpCapabilities"],
    ["session", "sessionCapabilities"],
  ] as const) {
    for (const [name, value] of Object.entries(asObject(caps[key]) ?? {})) if (value === true || asObject(value)) out.push(`${group}:${name}`);
  }
  return out;
}
