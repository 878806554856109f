/**
 * Which pi release line is installed (research/cli-pi.md §0, §1, §3). Two packages ship a `pi`:
 *  - `@mariozechner/pi-coding-agent`, which ends at 0.73.1 and runs on Node 20;
 *  - its renamed successor `@earendil-works/pi-coding-agent` 1.x, which needs Node ≥ 22.19.
 * Their flags differ: `--no-approve` and `--no-mcp` exist only in 1.x and are a fatal
 * `Unknown option` on 0.73. `pi --version` tells them apart, but 0.73 prints it to **stderr** when
 * stdin is not a terminal (1.x to stdout), so both streams are read. Under Node 20, 1.x dies at
 * import with a SyntaxError about `enableCompileCache` before printing anything of its own.
 */
import type { ProbeOutput, ProbeSpec, VariantProbe, VariantTraits } from "../contract.ts";

/** The release lines, as RunRequest.variant carries them. */
export const PI_LINE_0 = "0.x";
export const PI_LINE_1 = "1.x";
/** A 1.x install whose Node is too old to start it. */
export const PI_LINE_1_OLD_NODE = "1.x-old-node";
/** `--version` printed no version: driven with the 0.x flags, which 1.x accepts too. */
export const PI_LINE_UNKNOWN = "unknown";

/** True when the run must use the 1.x flags; anything unread falls back to the flags both lines take. */
export function isLine1(variant: string | undefined): boolean {
  return variant === PI_LINE_1;
}

export function piLineOf(out: ProbeOutput): string {
  const text = `${out.stdout}\n${out.stderr}`;
  if (/enableCompileCache|does not provide an export named/.test(text)) return PI_LINE_1_OLD_NODE;
  const major = /(?:^|\s)v?(\d+)\.\d+\.\d+/.exec(text)?.[1];
  if (major === undefined) return PI_LINE_UNKNOWN;
  return Number(major) >= 1 ? PI_LINE_1 : PI_LINE_0;
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
