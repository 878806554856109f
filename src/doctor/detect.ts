/**
 * Finding each backend's CLI and judging whether orchestrate can drive it: where it resolved from
 * (configured command → PATH → the usual install locations), its version, whether its `--help`
 * still lists every flag orchestrate passes, and — where the CLI has an offline check — whether
 * it is signed in. Shared by the doctor, the wizard and `init_status`.
 */
import type { ProbeSpec } from "../backends/contract.ts";
import { adapters, BACKENDS, type Backend } from "../backends/index.ts";
import { resolveCommand, type ResolvedVia } from "../process/resolve.ts";
import { variantOf, variantTraits } from "../runner/variant.ts";
import { capture, plain } from "../process/capture.ts";
import { interpretReadiness } from "../runner/readiness.ts";
import type { Readiness } from "../backends/contract.ts";

export type { Readiness };

export interface MissingFlag {
  flag: string;
  since: string;
}

export interface BackendProbe {
  backend: Backend;
  command: string;
  path?: string;
  via?: ResolvedVia;
  version?: string;
  /** Which build of the CLI this is, when its backend tells builds apart (grok, pi, agy). */
  variant?: string;
  /** That build as a person would name it. */
  variantLabel?: string;
  /** Which help command was read, e.g. `opencode run --help`. */
  helpCommand: string;
  missingFlags: MissingFlag[];
  readiness: Readiness;
  /** Why the CLI is not usable as it is; absent when all is well. */
  problems: { problem: string; hint: string }[];
}

export interface DetectOptions {
  env: Record<string, string | undefined>;
  /** Per backend, the `command:` the config names (name or absolute path). */
  commands?: Partial<Record<Backend, string>>;
  backends?: readonly Backend[];
}

export async function detectBackends(opts: DetectOptions): Promise<BackendProbe[]> {
  const backends = opts.backends ?? BACKENDS;
  return Promise.all(backends.map((backend) => detectBackend(backend, opts.commands?.[backend] ?? backend, opts.env)));
}

export async function detectBackend(backend: Backend, command: string, env: Record<string, string | undefined>): Promise<BackendProbe> {
  const adapter = adapters[backend];
  const spec = adapter.probes;
  const base: BackendProbe = { backend, command, helpCommand: [backend, ...spec.help].join(" "), missingFlags: [], readiness: "unknown", problems: [] };
  const found = resolveCommand(command, { env, homeDirs: adapter.installDirs });
  if (!found) return { ...base, problems: [notFound(backend, command)] };
  const probe: BackendProbe = { ...base, path: found.path, via: found.via };
  const version = await capture(found.path, spec.version, env);
  probe.version = versionFrom(`${version.stdout}\n${version.stderr}`);
  if (version.problem) probe.problems.push({ problem: `${backend} at ${found.path}: \`${[backend, ...spec.version].join(" ")}\` ${version.problem}`, hint: "run it by hand to see what it waits for; reinstall the CLI if it hangs" });
  const help = await capture(found.path, spec.help, env);
  const helpText = `${help.stdout}\n${help.stderr}`;
  const variant = await variantOf(adapter, found.path, env);
  if (variant !== undefined) probe.variant = variant;
  const traits = variantTraits(adapter, variant);
  if (traits.label) probe.variantLabel = traits.label;
  const probes = traits.probes;
  if (traits.refuse) probe.problems.push({ problem: `${backend}${probe.version ? ` ${probe.version}` : ""} at ${found.path}: ${traits.refuse}`, hint: `upgrade ${backend}` });
  probe.missingFlags = missingFlags(helpText, probes);
  for (const missing of probe.missingFlags) probe.problems.push(flagProblem(probe, missing));
  probe.readiness = await readiness(backend, found.path, probes, env);
  if (probe.readiness === "not_ready") probe.problems.push({ problem: `${backend} is installed but not signed in`, hint: `sign in: ${probes.loginHint}` });
  return probe;
}

function notFound(backend: Backend, command: string): { problem: string; hint: string } {
  return {
    problem: `${backend}: ${command} was not found on PATH or in the usual install locations`,
    hint: `install ${backend}, or set command: to its absolute path in the agent's config entry`,
  };
}

/** The first dotted version number the CLI printed (`codex-cli 0.171.0`, `2.1.332 (Claude Code)`). */
export function versionFrom(text: string): string | undefined {
  return /\bv?(\d+\.\d+(?:\.\d+)?(?:[-+][\w.]+)?)/.exec(plain(text))?.[1];
}

/** A flag counts as listed when it appears as a word of its own in the help text. */
export function missingFlags(helpText: string, spec: ProbeSpec): MissingFlag[] {
  const text = plain(helpText);
  return spec.requiredFlags.filter(({ flag }) => !new RegExp(`(^|[\\s,\\[(|])${escapeRe(flag)}(?=[\\s,=\\]<)|]|$)`, "m").test(text));
}

function flagProblem(probe: BackendProbe, missing: MissingFlag): { problem: string; hint: string } {
  const have = probe.version ? `${probe.backend} ${probe.version}` : probe.backend;
  const since = missing.since === "documented" ? "it is documented for this CLI" : `${probe.backend} ${missing.since} has it`;
  return {
    problem: `${have} at ${probe.path}: \`${probe.helpCommand}\` does not list ${missing.flag}, which orchestrate passes (${since})`,
    hint: hintFor(probe, missing),
  };
}

function hintFor(probe: BackendProbe, missing: MissingFlag): string {
  if (missing.since === "documented") return `upgrade ${probe.backend}`;
  if (probe.version && compareVersions(probe.version, missing.since) >= 0) return `this build lacks a flag ${missing.since} had: reinstall ${probe.backend}, or pin ${missing.since}`;
  return `upgrade ${probe.backend} to ${missing.since} or later`;
}

/** Numeric comparison of dotted versions; pre-release suffixes are ignored. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(/[-+]/)[0]?.split(".").map(Number) ?? [];
  const pb = b.split(/[-+]/)[0]?.split(".").map(Number) ?? [];
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  return 0;
}

/** The same reading route's pre-flight and list_agents use: the adapter decides what the probe means. */
async function readiness(backend: Backend, path: string, spec: ProbeSpec, env: Record<string, string | undefined>): Promise<Readiness> {
  if (!spec.auth) return "unknown";
  const out = await capture(path, spec.auth, env);
  if (out.problem) return "unknown";
  return interpretReadiness(adapters[backend], { exitCode: out.exitCode, stdout: out.stdout, stderr: out.stderr }, env);
}

function escapeRe(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
