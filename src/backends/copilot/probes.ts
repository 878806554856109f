/** How copilot is probed (docs/backends/copilot.md, "Sign-in and version"). */
import type { ProbeSpec } from "../contract.ts";

export function copilotProbes(): ProbeSpec {
  const since = "1.0.102";
  const flags = [
    "--output-format",
    "--allow-all-tools",
    "--deny-tool",
    "--resume",
    "--no-auto-update",
    "--no-ask-user",
    "--disable-builtin-mcps",
    "--usage-output-file",
  ];
  return {
    version: ["--version"],
    help: ["--help"],
    requiredFlags: flags.map((flag) => ({ flag, since })),
    // copilot has no offline auth-status command; readiness shows only on a real run.
    loginHint: "copilot login (or set COPILOT_GITHUB_TOKEN / GH_TOKEN, or `gh auth login`)",
    // `copilot --version` prints "GitHub Copilot CLI 1.0.102." for @github/copilot 1.0.102: an npm install is read from the file instead of starting the CLI (other installs are asked).
    packageVersion: "@github/copilot",
  };
}

/** `GitHub Copilot CLI 1.0.102.` → `1.0.102`. */
export function copilotVersionFrom(text: string): string | undefined {
  return /Copilot CLI (\d+\.\d+\.\d+(?:-[\w.]+)?)/.exec(text)?.[1];
}
