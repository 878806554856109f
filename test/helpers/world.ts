/**
 * An end-to-end world: a sandbox with this config, and a real MCP session to the server in this
 * process (fakes/lib/in-process.ts). What only a server process shows — its stderr, its pid, a
 * signal — needs `openServerWorld`, which spawns one (docs/testing.md says which to pick).
 */
import { connectInProcess } from "../../fakes/lib/in-process.ts";
import { connect, type ClientSession, type McpSession } from "../../fakes/lib/mcp-client.ts";
import { makeSandbox, type Sandbox } from "../../fakes/lib/sandbox.ts";

export interface World<S extends ClientSession = ClientSession> {
  box: Sandbox;
  session: S;
  close(): Promise<void>;
}

async function open<S extends ClientSession>(
  config: string,
  env: Record<string, string>,
  start: (env: Record<string, string>) => Promise<S>,
): Promise<World<S>> {
  const box = makeSandbox(env);
  box.writeConfig(config);
  const session = await start(box.env);
  return {
    box,
    session,
    close: async () => {
      await session.close().catch(() => undefined);
      box.cleanup();
    },
  };
}

export function openWorld(config: string, env: Record<string, string> = {}): Promise<World> {
  return open(config, env, (e) => connectInProcess(e));
}

/** The same world over a spawned server process, for tests that read its stderr or signal it. */
export function openServerWorld(config: string, env: Record<string, string> = {}): Promise<World<McpSession>> {
  return open(config, env, (e) => connect(e));
}
