/** How to register the server with each client, using this binary's absolute path. */
export function selfCommand(): string[] {
  const exe = process.execPath;
  // Under `bun src/main.ts` the executable is bun itself; the script path is argv[1].
  if (/\bbun(\.exe)?$/.test(exe) && process.argv[1]) return [exe, process.argv[1]];
  return [exe];
}

export function registrationHelp(): string {
  const cmd = selfCommand().join(" ");
  return [
    "orchestrate is an MCP server: it talks JSON-RPC on stdin/stdout and is meant to be started by an MCP client.",
    "Register it with your client:",
    `  claude mcp add orchestrate -- ${cmd}`,
    `  codex mcp add orchestrate -- ${cmd}`,
    `  gemini mcp add orchestrate ${cmd}`,
    "  opencode: add to opencode.json  \"mcp\": { \"orchestrate\": { \"type\": \"local\", \"command\": [" + selfCommand().map((p) => JSON.stringify(p)).join(", ") + "] } }",
    "  copilot: add to ~/.copilot/mcp-config.json  \"mcpServers\": { \"orchestrate\": { \"type\": \"local\", \"command\": " + JSON.stringify(selfCommand()[0]) + ", \"args\": " + JSON.stringify(selfCommand().slice(1)) + ", \"tools\": [\"*\"] } }",
    "Then check your config with: orchestrate check",
    "Waiting for an MCP client on stdin (Ctrl-C to quit)…",
    "",
  ].join("\n");
}
