/** How claude is probed (docs/backends/claude.md, "Sign-in"): its sign-in check and the flags it must list. */
import type { ProbeOutput, ProbeSpec, Readiness } from "../contract.ts";

/** `claude auth status` prints JSON with loggedIn and exits 1 when signed out. */
export function claudeReadiness(out: ProbeOutput): Readiness {
  return out.exitCode === 0 && !/"loggedIn"\s*:\s*false/.test(out.stdout) ? "ready" : "not_ready";
}

export const claudeProbes: ProbeSpec = {
  version: ["--version"],
  help: ["--help"],
  // All present in 2.1.197 and 2.1.332, the two versions captured.
  requiredFlags: [
    { flag: "--print", since: "2.1.197" },
    { flag: "--output-format", since: "2.1.197" },
    { flag: "--verbose", since: "2.1.197" },
    { flag: "--strict-mcp-config", since: "2.1.197" },
    { flag: "--mcp-config", since: "2.1.197" },
    { flag: "--setting-sources", since: "2.1.197" },
    { flag: "--permission-mode", since: "2.1.197" },
    { flag: "--allowedTools", since: "2.1.197" },
    { flag: "--tools", since: "2.1.197" },
    { flag: "--json-schema", since: "2.1.197" },
    { flag: "--resume", since: "2.1.197" },
    { flag: "--safe-mode", since: "2.1.197" },
  ],
  auth: ["auth", "status"],
  loginHint: "claude auth login",
  // `claude --version` prints "2.1.197 (Claude Code)" for @anthropic-ai/claude-code 2.1.197: an npm install is read from the file instead of starting the CLI (other installs are asked).
  packageVersion: "@anthropic-ai/claude-code",
};
