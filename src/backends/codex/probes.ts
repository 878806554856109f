/** How codex is probed (docs/backends/codex.md, "Sign-in"). */
import type { Env, ProbeOutput, ProbeSpec, Readiness } from "../contract.ts";

/** `login status` does not count API keys in the environment, but `exec` uses them. */
export function codexReadiness(out: ProbeOutput, env: Env): Readiness {
  return out.exitCode === 0 || Boolean(env.OPENAI_API_KEY || env.CODEX_API_KEY) ? "ready" : "not_ready";
}

export const codexProbes: ProbeSpec = {
  version: ["--version"],
  help: ["exec", "--help"],
  // "since" is the version these were verified on; older releases may have some of them.
  requiredFlags: [
    { flag: "--json", since: "0.171.0" },
    { flag: "--skip-git-repo-check", since: "0.171.0" },
    { flag: "--output-schema", since: "0.171.0" },
    { flag: "--ignore-user-config", since: "0.171.0" },
    { flag: "--ignore-rules", since: "0.171.0" },
    { flag: "--sandbox", since: "0.171.0" },
    { flag: "--cd", since: "0.171.0" },
    { flag: "--model", since: "0.171.0" },
  ],
  auth: ["login", "status"],
  loginHint: "codex login",
  // `codex --version` prints "codex-cli 0.171.0" for @openai/codex 0.171.0: an npm install is read from the file instead of starting the CLI (other installs are asked).
  packageVersion: "@openai/codex",
};
