/**
 * How pi is probed (docs/backends/pi.md, "Two release lines" and "Sign-in"): the flags each release
 * line must list, the sign-in check a 1.x agent can run, and the variant probe that reads the line
 * from `pi --version`.
 */
import type { ProbeOutput, ProbeSpec, Readiness, VariantProbe, VariantTraits } from "../contract.ts";
import { parseObject, str } from "../events.ts";
import { isLine1, PI_LINE_0, PI_LINE_1_OLD_NODE, piLineOf } from "./variant.ts";

/** Reads `pi auth check --json` (1.x): `{"status":"ready"|"not_ready"|"invalid",…}`, exit 0/1/2. */
export function piReadiness(out: ProbeOutput): Readiness {
  const status = str(parseObject(out.stdout)?.status) ?? out.stdout.trim();
  if (status === "ready") return "ready";
  if (status === "not_ready" || status === "invalid") return "not_ready";
  // Exit 2 without a status is a usage error (no --provider), not a verdict on credentials.
  return out.exitCode === 0 ? "ready" : out.exitCode === 1 ? "not_ready" : "unknown";
}

/** Flags every run passes, with the version they were checked on (both lines have them). */
const COMMON_FLAGS = [
  "--mode",
  "--provider",
  "--model",
  "--offline",
  "--tools",
  "--session",
  "--no-extensions",
  "--no-skills",
  "--no-prompt-templates",
  "--no-themes",
  "--no-context-files",
  "--system-prompt",
  "--append-system-prompt",
];

const LOGIN_HINT = "set the provider's API key variable (e.g. OPENAI_API_KEY), run `pi` and `/login`, or define the provider in ~/.pi/agent/models.json";

export function piProbesFor(variant: string): ProbeSpec {
  const line1 = isLine1(variant);
  const since = line1 ? "1.6.0" : "0.73.1";
  const flags = [...COMMON_FLAGS, ...(line1 ? ["--no-approve", "--no-mcp"] : [])];
  return {
    version: ["--version"],
    // 0.73 prints its help to stderr when stdin is not a terminal; the doctor reads both streams.
    help: ["--help"],
    requiredFlags: flags.map((flag) => ({ flag, since })),
    // 1.x has `pi auth check`, but it needs the agent's --provider, which a static probe cannot
    // carry (without it: exit 2). pi without credentials fails fast anyway (exit 1 in 0.6–1.6 s),
    // so a route needs no pre-flight. `piAuthCheckArgv` builds the per-agent probe.
    loginHint: LOGIN_HINT,
  };
}

/** `pi auth check` for one agent (1.x only): prints ready / not_ready / invalid, exit 0 / 1 / 2. */
export function piAuthCheckArgv(provider: string, model?: string): string[] {
  return ["auth", "check", "--provider", provider, ...(model ? ["--model", model] : []), "--json"];
}

const OLD_NODE_REFUSAL =
  "this pi is the 1.x line (@earendil-works/pi-coding-agent), which needs Node 22.19 or newer, and the Node it runs on is older (it dies at startup importing `enableCompileCache`). Upgrade Node, or install the 0.73 line: npm install -g @mariozechner/pi-coding-agent@0.73.1";

function traitsOf(variant: string): VariantTraits {
  if (variant === PI_LINE_1_OLD_NODE) return { label: "pi 1.x on a Node older than 22.19", supportsResume: false, refuse: OLD_NODE_REFUSAL };
  if (isLine1(variant)) return { label: "pi 1.x (@earendil-works/pi-coding-agent)", supportsResume: true, probes: piProbesFor(variant) };
  const label = variant === PI_LINE_0 ? "pi 0.x (@mariozechner/pi-coding-agent)" : "pi (version unreadable; driven with the 0.x flags)";
  return { label, supportsResume: true, probes: piProbesFor(PI_LINE_0) };
}

export const piVariant: VariantProbe = {
  argv: ["--version"],
  read: piLineOf,
  traits: traitsOf,
};
