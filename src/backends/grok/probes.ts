/** How grok is probed (docs/backends/grok.md, "Which grok is installed" and "Sign-in"): per program. */
import type { ProbeSpec, VariantProbe } from "../contract.ts";
import { detectGrokVariant, grokSupportsResume } from "./variant.ts";

export function grokProbesFor(variant: string): ProbeSpec {
  if (variant === "official") {
    const flags = ["-p", "--output-format", "--always-approve", "--resume", "--cwd", "--no-auto-update"];
    return {
      version: ["--version"],
      help: ["--help"],
      requiredFlags: flags.map((flag) => ({ flag, since: "documented" })),
      auth: ["models"],
      loginHint: "grok login (or `grok login --device-code`, or set XAI_API_KEY)",
    };
  }
  const flags = ["--prompt", "--directory", "--model"];
  return {
    version: ["--version"],
    help: ["--help"],
    requiredFlags: flags.map((flag) => ({ flag, since: "1.0.1" })),
    loginHint: "export GROK_API_KEY=<key from console.x.ai> (never pass -k: it is saved to ~/.grok/user-settings.json)",
  };
}

/** Two programs answer to `grok`; `--help` tells them apart (an unreadable one counts as community). */
export const grokVariant: VariantProbe = {
  argv: ["--help"],
  read: (out) => (out.stdout.trim() ? detectGrokVariant(out.stdout) : "community"),
  traits: (variant) => ({
    label: variant === "official" ? "Grok Build" : "community grok-cli",
    supportsResume: grokSupportsResume(variant),
    probes: grokProbesFor(variant),
  }),
};
