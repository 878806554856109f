#!/usr/bin/env bun
/**
 * Compiles src/main.ts into standalone binaries under dist/ plus a SHA256SUMS file.
 *
 *   bun build/compile.ts                 host target only (npm run build)
 *   bun build/compile.ts --all           every release target, then renders Formula/orchestrate.rb
 *   options: --out <dir> (default dist), --targets linux-x64,darwin-arm64, --no-bytecode,
 *            --formula <path> (with --all; default Formula/orchestrate.rb), --no-formula
 *
 * Cross targets need the Bun runtime of that platform. Bun would download it from GitHub; instead we
 * take it from the npm registry (`@oven/bun-<platform>@<this bun's version>`, the same artefact the
 * `bun` npm package installs) and hand it to `--compile-executable-path`, so a machine that can reach
 * npm can build every target.
 */
import { mkdir, mkdtemp, readdir, rename, rm, stat } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import { fail, ok, type Result } from "../src/result.ts";
import { parseSums, renderFormula } from "./formula.ts";
import pkg from "../package.json" with { type: "json" };

export type Os = "linux" | "darwin" | "windows";
export type Arch = "x64" | "arm64";
export interface Target {
  os: Os;
  arch: Arch;
}

const ROOT = resolve(import.meta.dir, "..");
const ENTRY = join(ROOT, "src/main.ts");

export const ALL_TARGETS: readonly Target[] = [
  { os: "linux", arch: "x64" },
  { os: "linux", arch: "arm64" },
  { os: "darwin", arch: "x64" },
  { os: "darwin", arch: "arm64" },
  { os: "windows", arch: "x64" },
];

export function targetName(t: Target): string {
  return `${t.os}-${t.arch}`;
}

export function binaryName(t: Target): string {
  return `orchestrate-${targetName(t)}${t.os === "windows" ? ".exe" : ""}`;
}

export function parseTarget(name: string): Target | null {
  return ALL_TARGETS.find((t) => targetName(t) === name) ?? null;
}

/** The target the running Bun can compile for without another runtime. */
export function hostTarget(): Target | null {
  const os = ({ linux: "linux", darwin: "darwin", win32: "windows" } as const)[process.platform as "linux" | "darwin" | "win32"];
  const arch = process.arch === "x64" || process.arch === "arm64" ? process.arch : undefined;
  return os && arch ? { os, arch } : null;
}

function isHost(t: Target): boolean {
  const h = hostTarget();
  return h !== null && targetName(h) === targetName(t);
}

/** Bun spells arm64 "aarch64" in its runtime package and target names. */
function bunPlatform(t: Target): string {
  return `${t.os}-${t.arch === "arm64" ? "aarch64" : "x64"}`;
}

export function runtimePackage(t: Target): string {
  return `@oven/bun-${bunPlatform(t)}`;
}

export function defaultRuntimeCache(): string {
  return process.env.ORCHESTRATE_BUN_RUNTIME_DIR ?? join(ROOT, "node_modules/.cache/orchestrate-bun-runtimes");
}

function runtimeExe(dir: string, t: Target): string {
  return join(dir, "package/bin", t.os === "windows" ? "bun.exe" : "bun");
}

function runtimeDir(t: Target, cacheDir: string, bunVersion: string): string {
  return join(cacheDir, `bun-${bunPlatform(t)}-${bunVersion}`);
}

/** Where ensureRuntime keeps (or will keep) a cross target's Bun runtime. */
export function runtimePath(t: Target, cacheDir = defaultRuntimeCache(), bunVersion = Bun.version): string {
  return runtimeExe(runtimeDir(t, cacheDir, bunVersion), t);
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

async function run(cmd: string[], cwd: string): Promise<Result<string>> {
  const proc = Bun.spawn(cmd, { cwd, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) return fail("command_failed", `${cmd.join(" ")} exited ${code}: ${(err || out).trim().slice(-2000)}`);
  return ok(out);
}

/** `npm pack` checks the registry's integrity hash; the tarball is unpacked into `work`. */
async function fetchRuntime(t: Target, work: string, bunVersion: string): Promise<Result<void>> {
  const spec = `${runtimePackage(t)}@${bunVersion}`;
  const packed = await run(["npm", "pack", spec, "--silent", "--pack-destination", work], work);
  if (!packed.ok) return fail("runtime_unavailable", `cannot fetch ${spec} from the npm registry: ${packed.error.message}`);
  const tgz = join(work, basename(packed.value.trim().split("\n").pop() ?? ""));
  const unpacked = await run(["tar", "-xzf", tgz, "-C", work], work);
  await rm(tgz, { force: true });
  if (!unpacked.ok) return unpacked;
  return (await exists(runtimeExe(work, t))) ? ok(undefined) : fail("runtime_unavailable", `${spec} has no bin/bun`);
}

/**
 * Path of the Bun runtime for a non-host target, fetched once from the npm registry into the cache
 * (null for the host target: the running Bun is its runtime).
 */
export async function ensureRuntime(t: Target, cacheDir = defaultRuntimeCache(), bunVersion = Bun.version): Promise<Result<string | null>> {
  if (isHost(t)) return ok(null);
  const dir = runtimeDir(t, cacheDir, bunVersion);
  if (await exists(runtimeExe(dir, t))) return ok(runtimeExe(dir, t));
  await mkdir(cacheDir, { recursive: true });
  // Unpack beside the cache and rename into place, so a concurrent build never sees half a runtime.
  const work = await mkdtemp(join(cacheDir, ".fetch-"));
  try {
    const fetched = await fetchRuntime(t, work, bunVersion);
    if (!fetched.ok) return fetched;
    await rm(dir, { recursive: true, force: true });
    await rename(work, dir).catch(() => undefined);
    return (await exists(runtimeExe(dir, t))) ? ok(runtimeExe(dir, t)) : fail("runtime_unavailable", `could not place the runtime in ${dir}`);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

export interface CompileOptions {
  outDir: string;
  bytecode: boolean;
  runtime: string | null;
}

/** The `bun build` command line for one target. */
export function compileArgs(t: Target, opts: CompileOptions): string[] {
  // --splitting keeps code behind import() (the SDK, arktype, handlers, the wizard) in chunks of its
  // own that load on first use: measured here, spawn → tools/list 11.8 → 8.4 ms and RSS after it
  // 43.1 → 37.1 MiB, because the start-up module no longer carries everything else.
  const args = [process.execPath, "build", ENTRY, "--compile", "--minify", "--splitting", "--format=esm", "--outfile", join(opts.outDir, binaryName(t))];
  if (opts.bytecode) args.push("--bytecode");
  // An MCP server starts in whatever project the client is in: never let that project's .env or
  // bunfig.toml (which can preload scripts) change the binary's environment or behaviour.
  args.push("--no-compile-autoload-dotenv", "--no-compile-autoload-bunfig");
  if (!isHost(t)) args.push(`--target=bun-${bunPlatform(t)}`);
  if (opts.runtime) args.push(`--compile-executable-path=${opts.runtime}`);
  return args;
}

export interface Built {
  target: Target;
  file: string;
  bytecode: boolean;
  bytes: number;
}

/** Compiles one target; when only the bytecode compilation fails, says why and ships without it. */
export async function compileTarget(t: Target, opts: CompileOptions): Promise<Result<Built>> {
  const file = join(opts.outDir, binaryName(t));
  const first = await run(compileArgs(t, opts), ROOT);
  let bytecode = opts.bytecode;
  if (!first.ok && opts.bytecode) {
    bytecode = false;
    const plain = await run(compileArgs(t, { ...opts, bytecode }), ROOT);
    if (!plain.ok) return fail("compile_failed", `${targetName(t)}: ${plain.error.message}`);
    process.stderr.write(`warning: ${targetName(t)} built WITHOUT bytecode (slower start); --bytecode failed:\n${first.error.message}\n`);
  } else if (!first.ok) {
    return fail("compile_failed", `${targetName(t)}: ${first.error.message}`);
  }
  return ok({ target: t, file, bytecode, bytes: (await stat(file)).size });
}

export async function sha256File(path: string): Promise<string> {
  const hasher = new Bun.CryptoHasher("sha256");
  for await (const chunk of Bun.file(path).stream()) hasher.update(chunk);
  return hasher.digest("hex");
}

/** `sha256sum` format: "<hex>  <file>", sorted by file name. */
export async function writeSums(outDir: string, files: string[]): Promise<string> {
  const names = files.map((f) => basename(f)).sort();
  const lines = await Promise.all(names.map(async (n) => `${await sha256File(join(outDir, n))}  ${n}`));
  const text = `${lines.join("\n")}\n`;
  await Bun.write(join(outDir, "SHA256SUMS"), text);
  return text;
}

/** Old binaries would otherwise sit next to SHA256SUMS without being listed in it. */
async function cleanOutDir(outDir: string): Promise<void> {
  await mkdir(outDir, { recursive: true });
  for (const name of await readdir(outDir)) {
    if (name === "SHA256SUMS" || name.startsWith("orchestrate-")) await rm(join(outDir, name), { force: true });
  }
}

export interface BuildOptions {
  targets: readonly Target[];
  outDir: string;
  bytecode: boolean;
  runtimeCache?: string;
}

export async function build(opts: BuildOptions): Promise<Result<Built[]>> {
  await cleanOutDir(opts.outDir);
  const runtimes = await Promise.all(opts.targets.map((t) => ensureRuntime(t, opts.runtimeCache)));
  const missing = runtimes.flatMap((r) => (r.ok ? [] : [r.error.message]));
  if (missing.length > 0) return fail("runtime_unavailable", missing.join("\n"));
  const built: Built[] = [];
  // One at a time: each compile holds a 90-110 MB runtime in memory and the CI runners have 2 cores.
  for (const [i, t] of opts.targets.entries()) {
    const r = runtimes[i];
    const res = await compileTarget(t, { outDir: opts.outDir, bytecode: opts.bytecode, runtime: r?.ok ? r.value : null });
    if (!res.ok) return res;
    built.push(res.value);
  }
  await writeSums(
    opts.outDir,
    built.map((b) => b.file),
  );
  return ok(built);
}

/** Renders the Homebrew formula from the SHA256SUMS just written. */
export async function renderFormulaFile(outDir: string, formulaPath: string, version = pkg.version): Promise<Result<string>> {
  const sums = parseSums(await Bun.file(join(outDir, "SHA256SUMS")).text());
  const rendered = renderFormula({ version, sums });
  if (!rendered.ok) return rendered;
  await Bun.write(formulaPath, rendered.value);
  return ok(formulaPath);
}

interface Cli {
  targets: Target[];
  outDir: string;
  bytecode: boolean;
  formula: string | null;
}

function flagValue(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
}

function parseCli(argv: string[]): Result<Cli> {
  const all = argv.includes("--all");
  const listed = flagValue(argv, "--targets")?.split(",");
  const host = hostTarget();
  let targets: Target[] = all ? [...ALL_TARGETS] : host ? [host] : [];
  if (listed) {
    const parsed = listed.map(parseTarget);
    const bad = listed.filter((_, i) => parsed[i] === null);
    if (bad.length > 0) return fail("bad_target", `unknown target(s): ${bad.join(", ")} (known: ${ALL_TARGETS.map(targetName).join(", ")})`);
    targets = parsed.filter((t): t is Target => t !== null);
  }
  if (targets.length === 0) return fail("bad_target", `unsupported host ${process.platform}-${process.arch}; pass --targets`);
  const formula = all && !argv.includes("--no-formula") ? resolve(flagValue(argv, "--formula") ?? join(ROOT, "Formula/orchestrate.rb")) : null;
  return ok({ targets, outDir: resolve(flagValue(argv, "--out") ?? join(ROOT, "dist")), bytecode: !argv.includes("--no-bytecode"), formula });
}

async function main(argv: string[]): Promise<number> {
  const cli = parseCli(argv);
  if (!cli.ok) return report(cli.error.message);
  const built = await build(cli.value);
  if (!built.ok) return report(built.error.message);
  for (const b of built.value) {
    process.stdout.write(`${b.file}  ${(b.bytes / 1048576).toFixed(1)} MiB${b.bytecode ? "  bytecode" : ""}\n`);
  }
  process.stdout.write(`${join(cli.value.outDir, "SHA256SUMS")}\n`);
  if (!cli.value.formula) return 0;
  const formula = await renderFormulaFile(cli.value.outDir, cli.value.formula);
  if (!formula.ok) return report(formula.error.message);
  process.stdout.write(`${formula.value}\n`);
  return 0;
}

function report(message: string): number {
  process.stderr.write(`build failed: ${message}\n`);
  return 1;
}

if (import.meta.main) process.exit(await main(process.argv.slice(2)));
