import { defineCommand } from "citty";
import { serveStdio } from "../mcp/server.ts";
import { installShutdownHandlers, killAllLive } from "../process/live.ts";
import { registrationHelp } from "./registration.ts";

/** Serve MCP over stdio until the client closes stdin; end every live process group on the way out. */
export async function serve(): Promise<void> {
  if (process.stdin.isTTY) process.stderr.write(registrationHelp());
  installShutdownHandlers({ onShutdown: () => process.exit(0) });
  await serveStdio({ env: process.env, onClose: () => killAllLive("shutdown") });
  process.exit(0);
}

export const serveCommand = defineCommand({
  meta: { name: "serve", description: "Serve MCP over stdio (the default with no arguments)." },
  run: serve,
});
