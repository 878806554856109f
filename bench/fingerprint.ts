/**
 * Fingerprint cost: src/git/fingerprint.ts `fingerprintTree` against a plain
 * `git status --porcelain=v2 -uall` on the same synthetic repo, interleaved. Repos of 50k and 200k
 * files (BENCH_SMALL=1: 5k and 20k) are generated once into bench/.work and reused; each has some
 * tracked files dirty and some untracked, since those are what the fingerprint must hash.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fingerprintTree } from "../src/git/fingerprint.ts";
import { interleave, iterations, median, ms, ratio, say, section, sh, SMALL, WORK, type Row } from "./helpers.ts";

const FILES_PER_DIR = 500;
/** Shares of the tree left modified (tracked) and added untracked after the commit. */
const DIRTY_SHARE = 0.005;
const UNTRACKED_SHARE = 0.002;
const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: "b",
  GIT_AUTHOR_EMAIL: "b@example.invalid",
  GIT_COMMITTER_NAME: "b",
  GIT_COMMITTER_EMAIL: "b@example.invalid",
};

export async function run(): Promise<Row[]> {
  const sizes = SMALL ? [5_000, 20_000] : [50_000, 200_000];
  section(`fingerprint: fingerprintTree vs git status --porcelain=v2 -uall on ${sizes.map(k).join(" / ")} files`);
  const rows: Row[] = [];
  for (const size of sizes) {
    const repo = await ensureRepo(size);
    const n = iterations(size > 100_000 ? 5 : 9);
    const samples = await interleave({ fingerprint: () => timed(() => fingerprint(repo)), status: () => timed(() => gitStatus(repo)) }, n, 1);
    const fp = median(samples.fingerprint);
    const st = median(samples.status);
    say(`${k(size)} files: fingerprintTree ${ms(fp)}  git status ${ms(st)}  ${ratio(fp, st)}  (n=${n})`);
    rows.push({
      benchmark: `fingerprint, ${k(size)} files`,
      value: ms(fp),
      reference: `git status ${ms(st)}`,
      ratio: ratio(fp, st),
      target: "≤ 1.3×",
      pass: fp <= 1.3 * st,
    });
  }
  return rows;
}

const k = (n: number): string => `${n / 1000}k`;

async function fingerprint(repo: string): Promise<void> {
  const res = await fingerprintTree(repo, { timeoutMs: 120_000 });
  if (!res.ok) throw new Error(`fingerprintTree failed: ${res.message}`);
}

async function gitStatus(repo: string): Promise<void> {
  const proc = Bun.spawn(["git", "status", "--porcelain=v2", "-uall"], { cwd: repo, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [, , code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`git status exited ${code}`);
}

/** bench/.work/fp-<size>: created once (a marker file says it is complete), reused afterwards. */
async function ensureRepo(size: number): Promise<string> {
  const repo = join(WORK, `fp-${size}`);
  const marker = join(WORK, `fp-${size}.ready`);
  if (existsSync(marker)) return repo;
  say(`generating ${k(size)}-file repo in ${repo} (once)…`);
  const t0 = performance.now();
  rmSync(repo, { recursive: true, force: true });
  mkdirSync(repo, { recursive: true });
  sh(["git", "init", "-q", "-b", "main"], repo, GIT_ENV);
  writeFiles(repo, size, (i) => `// file ${i}\nexport const value${i} = ${i};\n${"x".repeat(i % 400)}\n`);
  sh(["git", "add", "-A"], repo, GIT_ENV);
  sh(["git", "commit", "-q", "-m", "synthetic tree"], repo, GIT_ENV);
  const dirty = Math.round(size * DIRTY_SHARE);
  const step = Math.floor(size / dirty);
  for (let i = 0; i < dirty; i++) writeFileSync(pathOf(repo, i * step), `// edited ${i}\n`);
  const untracked = Math.round(size * UNTRACKED_SHARE);
  for (let i = 0; i < untracked; i++) writeFileSync(join(repo, `d${i % 50}`, `new-${i}.txt`), `untracked ${i}\n`);
  // Past the racy-git window, then one status with locks refreshes the index's stat data, so the
  // measured runs (which never write the index) all see the same clean stat cache.
  await Bun.sleep(1100);
  sh(["git", "status", "--porcelain"], repo, GIT_ENV);
  writeFileSync(marker, `${new Date().toISOString()}\n`);
  say(`generated in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${dirty} dirty, ${untracked} untracked`);
  return repo;
}

function pathOf(repo: string, i: number): string {
  return join(repo, `d${Math.floor(i / FILES_PER_DIR)}`, `f${i}.ts`);
}

function writeFiles(repo: string, size: number, content: (i: number) => string): void {
  for (let d = 0; d * FILES_PER_DIR < size; d++) mkdirSync(join(repo, `d${d}`), { recursive: true });
  for (let i = 0; i < size; i++) writeFileSync(pathOf(repo, i), content(i));
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

if (import.meta.main) console.log(await run());
