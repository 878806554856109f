/**
 * Finding each backend's CLI and judging whether orchestrate can drive it: where it resolved from
 * (configured command → PATH → the usual install locations), its version, whether its `--help`
 * still lists every flag orchestrate passes, and — where the CLI has an offline check — whether
 * it is signed in. Shared by the doctor, the wizard and `init_status`.
 */
import type { ProbeSpec } from "../backends/contract.ts";
import { adapters, CLI_BACKENDS, type Backend } from "../backends/index.ts";
import { resolveCommand, type ResolvedVia } from "../process/resolve.ts";
import { variantOf, variantTraits, type Prober } from "../runner/variant.ts";
import { capture, plain, PROBE_TIMEOUT_MS, type Captured, type CaptureOptions } from "../process/capture.ts";
import { interpretReadiness } from "../runner/readiness.ts";
import type { Readiness } from "../backends/contract.ts";
import { packageVersion } from "./package-version.ts";
import { openProbeCache, type CachedFindings, type ProbeCache } from "./probe-cache.ts";

export type { Readiness };

export interface MissingFlag {
  flag: string;
  since: string;
}

/** Something wrong with a CLI, and what to do about it. */
export interface ProbeProblem {
  problem: string;
  hint: string;
  /**
   * The agent cannot run until this is fixed (not installed, signed out, a flag missing, a build
   * refused). false: a reading that failed (a probe timed out), worth a look but no verdict.
   */
  blocks: boolean;
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
  /** Set when the help could not be read (it timed out twice): the flags are unchecked, not missing. */
  flagsUnchecked?: string;
  readiness: Readiness;
  /** Why the CLI is not usable as it is; absent when all is well. */
  problems: ProbeProblem[];
}

export interface DetectOptions {
  env: Record<string, string | undefined>;
  /** Per backend, the `command:` the config names (name or absolute path). */
  commands?: Partial<Record<Backend, string>>;
  backends?: readonly Backend[];
  /** Each backend's finding as soon as it is complete, in the order they answer (the wizard prints it). */
  onProbe?: (probe: BackendProbe) => void;
  /**
   * What only changes with the binary (version, build, missing flags) is kept here per binary
   * (probe-cache.ts) and read from it next time, so only the sign-in is asked again. The wizard
   * and the doctor both pass it; `init_status` does not.
   */
  cacheFile?: string;
  /** The first limit of each probe (default PROBE_TIMEOUT_MS); a probe that runs out gets twice as long once more. */
  probeTimeoutMs?: number;
  /**
   * The wizard's listing: each CLI's finding goes to onProbe as soon as its version, build and
   * sign-in are known; the flag check (`--help`) starts only once every CLI has answered, so it
   * no longer competes with them for the cores, and reports through onFlags.
   */
  listing?: { onFlags?: (probe: BackendProbe) => void };
}

/**
 * Every backend at once, and every probe of one backend at once where none depends on another:
 * the CLIs are mostly node programs that spend a second or two starting up, so one after another
 * a machine with six of them waited ~10 s (issue 11); in parallel the wait is the slowest CLI's.
 */
export async function detectBackends(opts: DetectOptions): Promise<BackendProbe[]> {
  const backends = opts.backends ?? CLI_BACKENDS;
  if (opts.listing) return listBackends(backends, opts, opts.listing);
  const cache = opts.cacheFile ? openProbeCache(opts.cacheFile) : undefined;
  const probes = await Promise.all(
    backends.map(async (backend) => {
      const probe = await (
        await stageBackend(backend, opts.commands?.[backend] ?? backend, opts.env, { helpAtOnce: true, cache, timeoutMs: opts.probeTimeoutMs })
      ).finish();
      opts.onProbe?.(probe);
      return probe;
    }),
  );
  cache?.save();
  return probes;
}

/** The wizard's two phases: every CLI's line, then every flag check; findings cached per binary. */
async function listBackends(backends: readonly Backend[], opts: DetectOptions, listing: NonNullable<DetectOptions["listing"]>): Promise<BackendProbe[]> {
  const cache = opts.cacheFile ? openProbeCache(opts.cacheFile) : undefined;
  const staged = await Promise.all(
    backends.map(async (backend) => {
      const stage = await stageBackend(backend, opts.commands?.[backend] ?? backend, opts.env, { helpAtOnce: false, cache, timeoutMs: opts.probeTimeoutMs });
      opts.onProbe?.(stage.probe);
      return stage;
    }),
  );
  const probes = await Promise.all(
    staged.map(async (stage) => {
      const probe = await stage.finish();
      listing.onFlags?.(probe);
      return probe;
    }),
  );
  cache?.save();
  return probes;
}

/** Where each backend's CLI resolves, without running anything (instant): what the wizard lists first. */
export function locateBackends(opts: Pick<DetectOptions, "env" | "commands" | "backends">): { backend: Backend; path?: string }[] {
  return (opts.backends ?? CLI_BACKENDS).map((backend) => {
    const found = resolveCommand(opts.commands?.[backend] ?? backend, { env: opts.env, homeDirs: adapters[backend].installDirs });
    return found ? { backend, path: found.path } : { backend };
  });
}

export async function detectBackend(backend: Backend, command: string, env: Record<string, string | undefined>): Promise<BackendProbe> {
  return (await stageBackend(backend, command, env, { helpAtOnce: true })).finish();
}

/** A finding whose version, build and sign-in are known; `finish` adds the flag check (once). */
interface Staged {
  probe: BackendProbe;
  finish(): Promise<BackendProbe>;
}

interface StageOptions {
  /** Start `--help` with the other probes (the doctor) or only in `finish` (the wizard's listing). */
  helpAtOnce: boolean;
  cache?: ProbeCache | undefined;
  timeoutMs?: number | undefined;
}

async function stageBackend(backend: Backend, command: string, env: Record<string, string | undefined>, opts: StageOptions): Promise<Staged> {
  const adapter = adapters[backend];
  const spec = adapter.probes;
  const base: BackendProbe = { backend, command, helpCommand: [backend, ...spec.help].join(" "), missingFlags: [], readiness: "unknown", problems: [] };
  const found = resolveCommand(command, { env, homeDirs: adapter.installDirs });
  if (!found) return settled({ ...base, problems: [notFound(backend, command)] });
  const run = probeOnce(found.path, { ...env, ...spec.env }, opts.timeoutMs, true);
  // A sign-in check that runs out of time reads "unknown", which is no false verdict: not retried.
  const ask = probeOnce(found.path, { ...env, ...spec.env }, opts.timeoutMs, false);
  const cached = opts.cache?.get(backend, found.path);
  if (cached) return fromCache(backend, { ...base, path: found.path, via: found.via }, cached, env, ask);
  // Started together: the version, the adapter's own help (grok's variant probe is that same
  // `--help`, so it runs once) and, where no variant can change the probes, the sign-in check.
  // The version is read from the CLI's own package where the backend says `--version` prints it.
  const cheapVersion = packageVersion(found.path, spec.packageVersion);
  const version = cheapVersion ? Promise.resolve(answered(cheapVersion)) : run(spec.version);
  const defaultHelp = opts.helpAtOnce ? run(spec.help) : undefined;
  const defaultReadiness = adapter.variant ? undefined : readiness(backend, spec, env, ask);
  const variant = await variantOf(adapter, found.path, env, run);
  const traits = variantTraits(adapter, variant);
  const probes = traits.probes;
  const helpNow = opts.helpAtOnce && !sameArgv(probes.help, spec.help) ? run(probes.help) : undefined;
  const [versionOut, ready] = await Promise.all([version, defaultReadiness ?? readiness(backend, probes, env, ask)]);
  const probe: BackendProbe = { ...base, path: found.path, via: found.via, readiness: ready };
  const parsed = versionFrom(plainOutput(versionOut));
  if (parsed) probe.version = parsed;
  if (versionOut.problem)
    probe.problems.push({
      problem: `${backend} at ${found.path}: \`${[backend, ...spec.version].join(" ")}\` ${versionOut.problem}`,
      hint: "run it by hand to see what it waits for; reinstall the CLI if it hangs",
      blocks: !versionOut.timedOut,
    });
  if (variant !== undefined) probe.variant = variant;
  if (traits.label) probe.variantLabel = traits.label;
  if (traits.refuse)
    probe.problems.push({
      problem: `${backend}${probe.version ? ` ${probe.version}` : ""} at ${found.path}: ${traits.refuse}`,
      hint: `upgrade ${backend}`,
      blocks: true,
    });
  return once(probe, async () => {
    const help = await (helpNow ?? (sameArgv(probes.help, spec.help) ? (defaultHelp ?? run(spec.help)) : run(probes.help)));
    // A help that never answered lists nothing: that says the probe ran out of time, not that
    // every flag is gone (issue 22: a loaded machine turned an 8 s timeout into "upgrade opencode").
    if (help.problem) {
      helpUnread(probe, probes, help.problem);
      signInProblem(probe, probes);
      return probe;
    }
    probe.missingFlags = missingFlags(`${help.stdout}\n${help.stderr}`, probes);
    // A missing flag's hint compares versions: then the CLI's own word is the truth.
    if (cheapVersion && probe.missingFlags.length > 0) {
      const version = versionFrom(plainOutput(await run(spec.version)));
      if (version !== undefined) probe.version = version;
    }
    for (const missing of probe.missingFlags) probe.problems.push(flagProblem(probe, missing));
    signInProblem(probe, probes);
    // Only a complete reading is kept: a CLI that did not answer is asked again next time.
    if (!versionOut.problem && !help.problem)
      opts.cache?.set(backend, found.path, {
        ...(probe.version ? { version: probe.version } : {}),
        ...(variant !== undefined ? { variant } : {}),
        missingFlags: probe.missingFlags,
      });
    return probe;
  });
}

/** A binary seen before: only the sign-in check runs; the rest is what that binary said last time. */
async function fromCache(backend: Backend, probe: BackendProbe, cached: CachedFindings, env: Record<string, string | undefined>, run: Prober): Promise<Staged> {
  const adapter = adapters[backend];
  const traits = variantTraits(adapter, cached.variant);
  probe.readiness = await readiness(backend, traits.probes, env, run);
  if (cached.version) probe.version = cached.version;
  if (cached.variant !== undefined) probe.variant = cached.variant;
  if (traits.label) probe.variantLabel = traits.label;
  if (traits.refuse)
    probe.problems.push({
      problem: `${backend}${probe.version ? ` ${probe.version}` : ""} at ${probe.path}: ${traits.refuse}`,
      hint: `upgrade ${backend}`,
      blocks: true,
    });
  return once(probe, async () => {
    probe.missingFlags = cached.missingFlags;
    for (const missing of probe.missingFlags) probe.problems.push(flagProblem(probe, missing));
    signInProblem(probe, traits.probes);
    return probe;
  });
}

/** A version read without running the CLI, shaped as its answer. */
function answered(version: string): Captured {
  return { ok: true, exitCode: 0, stdout: version, stderr: "" };
}

function plainOutput(out: Captured): string {
  return `${out.stdout}\n${out.stderr}`;
}

function signInProblem(probe: BackendProbe, probes: ProbeSpec): void {
  if (probe.readiness === "not_ready")
    probe.problems.push({ problem: `${probe.backend} is installed but not signed in`, hint: `sign in: ${probes.loginHint}`, blocks: true });
}

function helpUnread(probe: BackendProbe, probes: ProbeSpec, problem: string): void {
  const command = [probe.backend, ...probes.help].join(" ");
  probe.flagsUnchecked = problem;
  probe.problems.push({
    problem: `${probe.backend} at ${probe.path}: \`${command}\` ${problem}, so its flags are unchecked (not missing)`,
    hint: `the machine may be busy: run orchestrate check again, or \`${command}\` by hand`,
    blocks: false,
  });
}

function settled(probe: BackendProbe): Staged {
  return { probe, finish: async () => probe };
}

/** `finish` runs its work once, however often it is called. */
function once(probe: BackendProbe, work: () => Promise<BackendProbe>): Staged {
  let done: Promise<BackendProbe> | undefined;
  return { probe, finish: () => (done ??= work()) };
}

/**
 * One run per distinct argv of one binary: two checks that read the same output share it. With
 * `retry`, a probe that timed out is run once more with twice the time: on a loaded machine
 * several node CLIs starting at once can take longer than the first limit, and a second, later
 * try usually answers.
 */
function probeOnce(path: string, env: Record<string, string | undefined>, timeoutMs: number | undefined, retry: boolean): Prober {
  const runs = new Map<string, Promise<Captured>>();
  return (args, opts) => {
    const key = args.join("\0");
    let running = runs.get(key);
    if (!running) {
      const limits = { ...(timeoutMs !== undefined ? { timeoutMs } : {}), ...opts };
      running = retry ? captureWithRetry(path, args, env, limits) : capture(path, args, env, limits);
      runs.set(key, running);
    }
    return running;
  };
}

async function captureWithRetry(path: string, args: string[], env: Record<string, string | undefined>, opts: CaptureOptions = {}): Promise<Captured> {
  const first = await capture(path, args, env, opts);
  if (!first.timedOut) return first;
  const limit = (opts.timeoutMs ?? PROBE_TIMEOUT_MS) * 2;
  const second = await capture(path, args, env, { ...opts, timeoutMs: limit });
  if (!second.timedOut) return second;
  return { ...second, problem: `${first.problem}, and again after ${Math.round(limit / 1000)} s` };
}

function sameArgv(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((arg, i) => arg === b[i]);
}

function notFound(backend: Backend, command: string): ProbeProblem {
  return {
    problem: `${backend}: ${command} was not found on PATH or in the usual install locations`,
    hint: `install ${backend}, or set command: to its absolute path in the agent's config entry`,
    blocks: true,
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

function flagProblem(probe: BackendProbe, missing: MissingFlag): ProbeProblem {
  const have = probe.version ? `${probe.backend} ${probe.version}` : probe.backend;
  const since = missing.since === "documented" ? "it is documented for this CLI" : `${probe.backend} ${missing.since} has it`;
  return {
    problem: `${have} at ${probe.path}: \`${probe.helpCommand}\` does not list ${missing.flag}, which orchestrate passes (${since})`,
    hint: hintFor(probe, missing),
    blocks: true,
  };
}

function hintFor(probe: BackendProbe, missing: MissingFlag): string {
  if (missing.since === "documented") return `upgrade ${probe.backend}`;
  if (probe.version && compareVersions(probe.version, missing.since) >= 0)
    return `this build lacks a flag ${missing.since} had: reinstall ${probe.backend}, or pin ${missing.since}`;
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
async function readiness(backend: Backend, spec: ProbeSpec, env: Record<string, string | undefined>, run: Prober): Promise<Readiness> {
  if (!spec.auth) return "unknown";
  const out = await run(spec.auth);
  if (out.problem) return "unknown";
  return interpretReadiness(adapters[backend], { exitCode: out.exitCode, stdout: out.stdout, stderr: out.stderr }, env);
}

function escapeRe(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
