/** An end-to-end world: a sandbox with this config, and a real MCP session to a server in it. */
import { connect, type McpSession } from "../../fakes/lib/mcp-client.ts";
import { makeSandbox, type Sandbox } from "../../fakes/lib/sandbox.ts";

export interface World {
  box: Sandbox;
  session: McpSession;
  close(): Promise<void>;
}

export async function openWorld(config: string, env: Record<string, string> = {}): Promise<World> {
  const box = makeSandbox(env);
  box.writeConfig(config);
  const session = await connect(box.env);
  return {
    box,
    session,
    close: async () => {
      await session.close().catch(() => undefined);
      box.cleanup();
    },
  };
}
