/** How to register the server with each client, using this binary's absolute path. */
import { adapters, BACKENDS } from "../backends/index.ts";
import { SERVER_NAME } from "../setup/registration.ts";

export function selfCommand(): string[] {
  const exe = process.execPath;
  // Under `bun src/main.ts` the executable is bun itself; the script path is argv[1].
  if (/\bbun(\.exe)?$/.test(exe) && process.argv[1]) return [exe, process.argv[1]];
  return [exe];
}

export function registrationHelp(): string {
  const self = selfCommand();
  // Each backend whose CLI can host an MCP server words its own line.
  const lines = BACKENDS.flatMap((b) => adapters[b].registrationHelp?.(SERVER_NAME, self) ?? []);
  return [
    "orchestrate is an MCP server: it talks JSON-RPC on stdin/stdout and is meant to be started by an MCP client.",
    "Register it with your client:",
    ...lines,
    "Then check your config with: orchestrate check",
    "Waiting for an MCP client on stdin (Ctrl-C to quit)…",
    "",
  ].join("\n");
}
