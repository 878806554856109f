/**
 * Shared plumbing for the benchmarks: run knobs from the environment, medians, interleaved timing,
 * RSS from /proc, the compiled binaries under bench/.work, and the result rows printed at the end.
 * Every ratio is taken against a reference measured in the same run, interleaved, so a busy or
 * throttled machine shifts both sides alike.
 */
import { existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

export const REPO_ROOT = resolve(import.meta.dir, "..");
export const WORK = join(REPO_ROOT, "bench", ".work");
export const BUN = process.execPath;

/** Iterations per measured side; BENCH_N overrides each benchmark's default. */
export function iterations(fallback: number): number {
  const n = Number(process.env.BENCH_N);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

export const SMALL = process.env.BENCH_SMALL === "1";

export interface Row {
  benchmark: string;
  value: string;
  reference: string;
  ratio: string;
  target: string;
  /** undefined: informational, no target. */
  pass?: boolean;
  note?: string;
}

export function median(xs: readonly number[]): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

export const ms = (x: number): string => `${x.toFixed(x < 10 ? 2 : 1)} ms`;
export const mib = (bytes: number): string => `${(bytes / 1048576).toFixed(1)} MiB`;
export const ratio = (a: number, b: number): string => `${(a / b).toFixed(2)}×`;

/**
 * Runs every side once per round, in a rotating order, for `rounds` rounds after `warmup` rounds,
 * and returns each side's samples. Rotating the order keeps "always second" effects off one side.
 */
export async function interleave<K extends string, T>(sides: Record<K, () => Promise<T>>, rounds: number, warmup = 1): Promise<Record<K, T[]>> {
  const keys = Object.keys(sides) as K[];
  const out = Object.fromEntries(keys.map((k) => [k, [] as T[]])) as Record<K, T[]>;
  for (let r = 0; r < warmup + rounds; r++) {
    for (let i = 0; i < keys.length; i++) {
      const key = keys[(r + i) % keys.length] as K;
      const sample = await sides[key]();
      if (r >= warmup) out[key].push(sample);
    }
  }
  return out;
}

/** A field of /proc/<pid>/status in bytes (VmRSS, VmHWM, RssAnon, RssFile); NaN once the process is gone. */
export function rssOf(pid: number, field: "VmRSS" | "VmHWM" | "RssAnon" | "RssFile" = "VmRSS"): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1];
    return kb ? Number(kb) * 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** Runs a command to its end; throws with its stderr when it fails (bench setup must not go on half-built). */
export function sh(cmd: string[], cwd = REPO_ROOT, env: Record<string, string | undefined> = process.env): string {
  const out = Bun.spawnSync(cmd, { cwd, env, stdout: "pipe", stderr: "pipe" });
  if (out.exitCode !== 0) throw new Error(`${cmd.join(" ")} exited ${out.exitCode}: ${out.stderr.toString().slice(-2000)}`);
  return out.stdout.toString();
}

/** The orchestrate binary, built once per `npm run bench` from the current sources. */
let built: string | undefined;
export function orchestrateBinary(): string {
  if (built) return built;
  const out = join(WORK, "dist");
  sh([BUN, "build/compile.ts", "--out", out]);
  const file = join(out, `orchestrate-linux-${process.arch}`);
  if (!existsSync(file)) throw new Error(`build/compile.ts did not produce ${file}`);
  built = file;
  return file;
}

/** A bench/fixtures/<name>.ts compiled the way the product is (minify, bytecode, esm); rebuilt when the source is newer. */
export function fixtureBinary(name: "floor" | "sdk-floor"): string {
  const src = join(REPO_ROOT, "bench", "fixtures", `${name}.ts`);
  const file = join(WORK, name);
  if (existsSync(file) && statSync(file).mtimeMs > statSync(src).mtimeMs) return file;
  mkdirSync(WORK, { recursive: true });
  sh([
    BUN,
    "build",
    src,
    "--compile",
    "--minify",
    "--bytecode",
    "--format=esm",
    "--no-compile-autoload-dotenv",
    "--no-compile-autoload-bunfig",
    "--outfile",
    file,
  ]);
  return file;
}

export const floorBinary = (): string => fixtureBinary("floor");

/**
 * The peer (mcp-orchestrate on node), installed on demand into bench/.work/peer. Returns why it is
 * missing instead of throwing: the bench still runs without that column.
 */
export function peerEntry(): { ok: true; argv: string[] } | { ok: false; why: string } {
  const dir = join(WORK, "peer");
  const entry = join(dir, "node_modules", "mcp-orchestrate", "dist", "index.js");
  const node = Bun.which("node");
  if (!node) return { ok: false, why: "node is not on PATH" };
  if (!existsSync(entry) && process.env.BENCH_NO_PEER_INSTALL !== "1") {
    mkdirSync(dir, { recursive: true });
    const res = Bun.spawnSync(["npm", "install", "--no-audit", "--no-fund", "--prefix", dir, "mcp-orchestrate"], { stdout: "pipe", stderr: "pipe" });
    if (res.exitCode !== 0) return { ok: false, why: `npm install mcp-orchestrate failed: ${res.stderr.toString().trim().split("\n").pop()}` };
  }
  if (!existsSync(entry)) return { ok: false, why: `${entry} not found` };
  return { ok: true, argv: [node, entry] };
}

export function section(title: string): void {
  process.stderr.write(`\n== ${title}\n`);
}

/** Progress lines go to stderr so stdout carries only the tables. */
export function say(line: string): void {
  process.stderr.write(`   ${line}\n`);
}

export function renderTable(rows: readonly Row[]): string {
  const head = ["benchmark", "value", "reference", "ratio", "target", "pass/miss"];
  const body = rows.map((r) => [r.benchmark, r.value, r.reference, r.ratio, r.target, r.pass === undefined ? "info" : r.pass ? "pass" : "MISS"]);
  const lines = [head, head.map(() => "---"), ...body].map((cells) => `| ${cells.join(" | ")} |`);
  const notes = rows.filter((r) => r.note).map((r) => `- ${r.benchmark}: ${r.note}`);
  return [...lines, ...(notes.length ? ["", ...notes] : [])].join("\n");
}
