/** How opencode is probed (docs/backends/opencode.md, "Sign-in"). */
import type { ProbeOutput, ProbeSpec, Readiness } from "../contract.ts";

/**
 * `auth list` exits 0 even with no credentials, and lists provider keys found in the environment
 * in a block of their own (docs/backends/opencode.md, "Sign-in"). No pre-flight: orchestrate always passes -m, and a
 * provider without credentials then fails in ~2 s; only a run without -m hangs on the free model.
 * Providers configured in opencode.json with an inline key show as 0 credentials too, so this bit
 * is advice for list_agents and the doctor, never a reason to skip a run.
 */
export function opencodeReadiness(out: ProbeOutput): Readiness {
  const text = stripAnsi(out.stdout);
  if (out.exitCode !== 0) return "not_ready";
  return /(^|\s)0 credentials/.test(text) && !/[1-9]\d* environment variables?/.test(text) ? "not_ready" : "ready";
}

export const opencodeProbes: ProbeSpec = {
  version: ["--version"],
  help: ["run", "--help"],
  requiredFlags: ["--format", "--session", "--model", "--dir", "--print-logs", "--log-level", "--pure"].map((flag) => ({
    flag,
    since: "1.18.33",
  })),
  auth: ["auth", "list"],
  loginHint: "opencode auth login",
  // `opencode --version` prints "1.18.33" for opencode-ai 1.18.33: an npm install is read from the file instead of starting the CLI (other installs are asked).
  packageVersion: "opencode-ai",
};

function stripAnsi(text: string): string {
  // biome-ignore lint: the escape character is the point
  return text.replace(/\x1b\[[0-9;]*[A-Za-z]/g, "");
}
