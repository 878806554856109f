/**
 * How agy is probed (docs/backends/agy.md, "Sign-in, retries and models" and "Versions"): the
 * quota-free sign-in check, the flags a build must list, and the variant probe that reads the
 * installed version and refuses a build too old to drive.
 */
import type { ProbeOutput, ProbeSpec, Readiness, VariantProbe, VariantTraits } from "../contract.ts";
import { AGY_MIN_VERSION, AGY_UNKNOWN_VERSION, agyRefusal, agyVersionOf } from "./variant.ts";

/** `agy models` is the cheap, quota-free sign-in check: exit 1 "Please sign in…" when out. */
export function agyReadiness(out: ProbeOutput): Readiness {
  if (out.exitCode === 0) return "ready";
  return /Please sign in|not logged into Antigravity|authentication required|secret keyring is locked/i.test(`${out.stdout}\n${out.stderr}`)
    ? "not_ready"
    : "unknown";
}

/** Flags orchestrate passes, with the first version known to list them. */
const REQUIRED_FLAGS = [
  { flag: "--output-format", since: "1.1.8" },
  { flag: "--json-schema", since: "1.1.8" },
  { flag: "--disable-slash-commands", since: AGY_MIN_VERSION },
  { flag: "--sandbox", since: "1.0.0" },
  { flag: "--print-timeout", since: "1.0.0" },
  { flag: "--model", since: "1.0.0" },
  { flag: "--conversation", since: "1.0.0" },
  { flag: "--add-dir", since: "1.0.0" },
  { flag: "--log-file", since: "1.0.0" },
];

export const agyProbes: ProbeSpec = {
  version: ["--version"],
  help: ["--help"],
  requiredFlags: REQUIRED_FLAGS,
  auth: ["models"],
  // There is no login subcommand; sign-in happens in the TUI.
  loginHint: "agy (run it once in a terminal and sign in with your Google account)",
};

export const agyVariant: VariantProbe = {
  argv: ["--version"],
  read: (out: ProbeOutput) => agyVersionOf(`${out.stdout}\n${out.stderr}`) ?? AGY_UNKNOWN_VERSION,
  traits: (variant: string): VariantTraits => {
    const refuse = agyRefusal(variant);
    return refuse ? { refuse, supportsResume: false } : {};
  },
};
