/**
 * isolated_write set-up cost: src/git/worktree.ts `createWorktree` (common dir, `git worktree add
 * --detach`, the gitdir pinned from the new .git file) against a bare `git worktree add --detach`
 * of the same commit, interleaved, on a clean 50k-file repository (BENCH_SMALL=1: 5k) generated
 * once into bench/.work. Each worktree is removed between runs, outside the timing. Target ≤ 1.5×.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createWorktree, removeWorktree } from "../src/git/worktree.ts";
import { interleave, iterations, median, ms, ratio, say, section, sh, SMALL, WORK, type Row } from "./helpers.ts";

const FILES_PER_DIR = 500;
const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: "b",
  GIT_AUTHOR_EMAIL: "b@example.invalid",
  GIT_COMMITTER_NAME: "b",
  GIT_COMMITTER_EMAIL: "b@example.invalid",
};

export async function run(): Promise<Row[]> {
  const size = SMALL ? 5_000 : 50_000;
  section(`worktree: createWorktree vs git worktree add on ${size / 1000}k files`);
  const repo = ensureRepo(size);
  const head = sh(["git", "rev-parse", "HEAD"], repo).trim();
  const dir = join(WORK, `wt-${size}-out`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  sh(["git", "worktree", "prune"], repo);
  let n = 0;
  const ours = async (): Promise<number> => {
    const path = join(dir, `o${n++}`);
    const t0 = performance.now();
    const made = await createWorktree(repo, path, head);
    const took = performance.now() - t0;
    if (!made.ok || !made.worktree) throw new Error(`createWorktree failed: ${made.ok ? "no gitdir" : made.message}`);
    await removeWorktree(made.worktree);
    return took;
  };
  const plain = async (): Promise<number> => {
    const path = join(dir, `p${n++}`);
    const t0 = performance.now();
    const proc = Bun.spawn(["git", "worktree", "add", "--detach", "--quiet", path, head], { cwd: repo, stdin: "ignore", stdout: "ignore", stderr: "pipe" });
    const code = await proc.exited;
    const took = performance.now() - t0;
    if (code !== 0) throw new Error(`git worktree add exited ${code}`);
    sh(["git", "worktree", "remove", "--force", path], repo);
    return took;
  };
  const rounds = iterations(5);
  const samples = await interleave({ ours, plain }, rounds, 1);
  const a = median(samples.ours);
  const b = median(samples.plain);
  say(`${size / 1000}k files: createWorktree ${ms(a)}  git worktree add ${ms(b)}  ${ratio(a, b)}  (n=${rounds})`);
  rmSync(dir, { recursive: true, force: true });
  return [
    {
      benchmark: `worktree set-up, ${size / 1000}k files`,
      value: ms(a),
      reference: `git worktree add ${ms(b)}`,
      ratio: ratio(a, b),
      target: "≤ 1.5×",
      pass: a <= 1.5 * b,
    },
  ];
}

/** bench/.work/wt-<size>: a clean committed tree, created once (a marker says it is complete). */
function ensureRepo(size: number): string {
  const repo = join(WORK, `wt-${size}`);
  const marker = join(WORK, `wt-${size}.ready`);
  if (existsSync(marker)) return repo;
  say(`generating ${size / 1000}k-file repo in ${repo} (once)…`);
  rmSync(repo, { recursive: true, force: true });
  mkdirSync(repo, { recursive: true });
  sh(["git", "init", "-q", "-b", "main"], repo, GIT_ENV);
  for (let d = 0; d * FILES_PER_DIR < size; d++) mkdirSync(join(repo, `d${d}`), { recursive: true });
  for (let i = 0; i < size; i++)
    writeFileSync(join(repo, `d${Math.floor(i / FILES_PER_DIR)}`, `f${i}.ts`), `// file ${i}\nexport const value${i} = ${i};\n${"x".repeat(i % 400)}\n`);
  sh(["git", "add", "-A"], repo, GIT_ENV);
  sh(["git", "commit", "-q", "-m", "synthetic tree"], repo, GIT_ENV);
  writeFileSync(marker, `${new Date().toISOString()}\n`);
  return repo;
}
