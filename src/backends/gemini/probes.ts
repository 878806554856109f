/** How gemini is probed (docs/backends/gemini.md, "Sign-in and probes"). */
import type { ProbeSpec } from "../contract.ts";

export const geminiProbes: ProbeSpec = {
  version: ["--version"],
  help: ["--help"],
  requiredFlags: ["--output-format", "--approval-mode", "--allowed-mcp-server-names", "--extensions", "--model", "--resume"].map((flag) => ({
    flag,
    since: "0.61.0",
  })),
  // gemini has no auth-status command: sign-in is settings.json or env (docs/backends/gemini.md).
  loginHint: "gemini (sign in interactively once) or set GEMINI_API_KEY",
  // Without it gemini re-launches itself in a second node process (to raise its heap) before
  // printing its version or help: twice the ~0.8 s of CPU each probe costs.
  env: { GEMINI_CLI_NO_RELAUNCH: "true" },
  // `gemini --version` prints the version its release build baked in, the one its package.json
  // carries (0.61.0: both "0.61.0"); reading the file saves ~1 s of node start-up.
  packageVersion: "@google/gemini-cli",
};
