/**
 * A fingerprint of a git working tree: HEAD, the index entries of changed paths, and the content
 * and mode of every changed or untracked (not ignored) file. Two equal fingerprints mean the tree
 * did not change, which is what allows a fallback to another backend after a failed attempt.
 *
 * Strictly read-only: one `git status` with optional locks off (it does not refresh or write the
 * index) and our own hashing of the listed files. No `git add`, `write-tree` or `update-index`,
 * which would write the user's index or object store.
 *
 * `git status` alone is not enough: a second edit to an already-dirty file, or an edit to an
 * untracked file, prints the same status line. Hashing the bytes of every listed path catches both.
 *
 * The repository's own control files count too (see hashRepoControl): a delegate that changes the
 * git configuration, a hook or an info file has changed what the user's next git command runs.
 */
import { lstatSync, readdirSync, readFileSync, readlinkSync, type Stats } from "node:fs";
import { isAbsolute, join, relative, resolve } from "node:path";
import { readConfigListing, runGit, type GitOutput } from "./run.ts";

/** Where a work tree's repository lives, from one rev-parse; reused by the second fingerprint. */
export interface RepoLayout {
  top: string;
  /** This work tree's git directory (…/.git, or …/.git/worktrees/<name> for a linked one). */
  gitDir: string;
  /** The directory shared by all work trees: config, hooks, info. */
  commonDir: string;
}

export type FingerprintResult = { ok: true; value: string; top: string; repo: RepoLayout } | Extract<GitOutput, { ok: false }>;

export interface FingerprintOptions {
  timeoutMs: number;
  /**
   * Absolute paths left out of the fingerprint: files a CLI writes into the cwd on every run as
   * its own bookkeeping (community grok's ./.grok/settings.json), which say nothing about the task.
   */
  ignorePaths?: readonly string[];
  /** The repository layout from an earlier fingerprint of the same cwd: saves a git spawn. */
  repo?: RepoLayout;
}

const STATUS_ARGS = ["--no-optional-locks", "status", "--porcelain=v2", "-z", "-uall", "--ignore-submodules=none", "--branch", "--no-ahead-behind"];
/**
 * What git may print before the fingerprint gives up as an error (a value, so the route treats the
 * tree as unknown and never falls back on it). ~500k changed or untracked entries: far past what
 * can be hashed within the attempt's fingerprint timeout anyway.
 */
const MAX_STATUS_BYTES = 64 * 1024 * 1024;
const MAX_TOPLEVEL_BYTES = 64 * 1024;
/** Files above this are hashed from a stream instead of one read, to bound memory. */
const STREAM_ABOVE_BYTES = 1024 * 1024;

export async function fingerprintTree(cwd: string, opts: FingerprintOptions): Promise<FingerprintResult> {
  const deadline = Date.now() + opts.timeoutMs;
  const left = (): number => Math.max(0, deadline - Date.now());
  // Status paths with -z are relative to the top level (and to cwd without it): hash from the top.
  // The config listing is the same read from any directory of the repository, so it need not wait
  // for rev-parse to name the top level: the two run together.
  const [layout, listing] = await Promise.all([
    opts.repo !== undefined ? { ok: true as const, value: opts.repo } : repoLayout(cwd, opts.timeoutMs),
    readConfigListing(opts.repo?.top ?? cwd, { timeoutMs: left(), maxBytes: MAX_STATUS_BYTES, env: gitEnv(process.env) }),
  ]);
  if (!layout.ok) return layout;
  const repo = layout.value;
  const root = repo.top;
  if (!listing.ok) return listing;
  const status = await runGit(root, STATUS_ARGS, {
    timeoutMs: left(),
    maxBytes: MAX_STATUS_BYTES,
    env: gitEnv(process.env),
    configListing: listing.value,
    commonDir: repo.commonDir,
  });
  if (!status.ok) return status;
  const hasher = new Bun.CryptoHasher("sha256");
  hasher.update("orchestrate-fingerprint-v2\0");
  hashRepoControl(hasher, repo, listing.value);
  const ignored = new Set((opts.ignorePaths ?? []).map((p) => relative(root, p)));
  for (const record of parseStatus(status.value)) {
    if (record.path !== undefined && ignored.has(record.path)) continue;
    if (Date.now() > deadline) return { ok: false, reason: "timeout", message: `hashing the working tree took longer than ${opts.timeoutMs} ms` };
    hasher.update(record.line);
    hasher.update("\0");
    if (record.path !== undefined) await hashPath(hasher, resolve(root, record.path));
  }
  return { ok: true, value: hasher.digest("hex"), top: root, repo };
}

async function repoLayout(cwd: string, timeoutMs: number): Promise<{ ok: true; value: RepoLayout } | Extract<GitOutput, { ok: false }>> {
  const out = await runGit(cwd, ["rev-parse", "--path-format=absolute", "--show-toplevel", "--absolute-git-dir", "--git-common-dir"], {
    timeoutMs,
    maxBytes: MAX_TOPLEVEL_BYTES,
    env: gitEnv(process.env),
  });
  if (!out.ok) return out;
  const [top, gitDir, commonDir] = out.value.replace(/\n$/, "").split("\n");
  if (!top || !gitDir || !commonDir) return { ok: false, reason: "error", message: "git rev-parse did not name the work tree and its git directories" };
  return { ok: true, value: { top, gitDir, commonDir } };
}

/** At most this many entries of one control directory are hashed (a hooks dir is a dozen files). */
const MAX_CONTROL_ENTRIES = 1000;

/**
 * What the repository would run or obey on the user's next git command, beyond the tree: the
 * effective configuration (includes followed, as git reads it), the config files of both git
 * directories (config.worktree too, read or not), every hook and info file (exclude, attributes),
 * and the hooks directory core.hooksPath names. Hashed by content, like the tree's files.
 */
function hashRepoControl(hasher: Hasher, repo: RepoLayout, listing: string): void {
  hasher.update(`config-listing\0${listing}\0`);
  const dirs = new Set([repo.gitDir, repo.commonDir]);
  for (const dir of dirs) for (const file of ["config", "config.worktree"]) hashControlFile(hasher, join(dir, file));
  for (const dir of dirs) for (const sub of ["hooks", "info"]) hashControlDir(hasher, join(dir, sub));
  const hooksPath = configValue(listing, "core.hookspath");
  if (hooksPath) hashControlDir(hasher, isAbsolute(hooksPath) ? hooksPath : resolve(repo.top, hooksPath));
}

function hashControlFile(hasher: Hasher, path: string): void {
  hasher.update(`control ${path}\0`);
  hashSmall(hasher, path);
}

/** Entries by name (sorted), each by mode, size and content; one level of subdirectory by listing. */
function hashControlDir(hasher: Hasher, dir: string): void {
  hasher.update(`control-dir ${dir}\0`);
  let names: string[];
  try {
    names = readdirSync(dir).sort().slice(0, MAX_CONTROL_ENTRIES);
  } catch {
    return void hasher.update("missing\0");
  }
  for (const name of names) {
    hasher.update(`${name}\0`);
    hashSmall(hasher, join(dir, name));
  }
}

/** Control files are small: hashed from one read; anything odd (a FIFO, a directory) by its stat. */
function hashSmall(hasher: Hasher, path: string): void {
  let stats: Stats;
  try {
    stats = lstatSync(path);
  } catch {
    return void hasher.update("missing\0");
  }
  hasher.update(`${stats.mode.toString(8)} ${stats.size}\0`);
  if (stats.isSymbolicLink()) return void hasher.update(`link:${safe(() => readlinkSync(path))}\0`);
  if (stats.isDirectory()) return void hasher.update(`dir:${safe(() => readdirSync(path).sort().join("/"))}\0`);
  if (stats.isFile() && stats.size <= STREAM_ABOVE_BYTES) hasher.update(safe(() => readFileSync(path)));
}

/** The last value of a key (lower-cased, as git prints it) in a `git config --list -z` listing. */
function configValue(listing: string, key: string): string | undefined {
  let value: string | undefined;
  for (const entry of listing.split("\0")) if (entry.startsWith(`${key}\n`)) value = entry.slice(key.length + 1);
  return value;
}

interface StatusRecord {
  /** The status record as git printed it (includes the index hash of tracked entries). */
  line: string;
  /** The working-tree path to hash, relative to the top level. */
  path?: string;
}

/** Space-separated fields before the path, per porcelain v2 record type. */
const FIELDS_BEFORE_PATH: Record<string, number> = { "1": 8, "2": 9, u: 10, "?": 1 };

/** Parses `git status --porcelain=v2 -z` output into records to hash. Exported for tests. */
export function parseStatus(output: string): StatusRecord[] {
  const records: StatusRecord[] = [];
  const entries = output.split("\0");
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] ?? "";
    if (entry === "") continue;
    if (entry.startsWith("# ")) {
      // Only HEAD and the branch name: other headers (upstream) can move without the tree moving.
      if (entry.startsWith("# branch.oid ") || entry.startsWith("# branch.head ")) records.push({ line: entry });
      continue;
    }
    const fields = FIELDS_BEFORE_PATH[entry[0] ?? ""];
    if (fields === undefined) {
      records.push({ line: entry });
      continue;
    }
    const path = afterFields(entry, fields);
    records.push({ line: entry, path });
    // A rename/copy record is followed by its original path as a separate NUL-terminated entry.
    if (entry[0] === "2") records.push({ line: `orig ${entries[++i] ?? ""}` });
  }
  return records;
}

function afterFields(entry: string, count: number): string {
  let at = 0;
  for (let n = 0; n < count; n++) at = entry.indexOf(" ", at) + 1;
  return entry.slice(at);
}

type Hasher = InstanceType<typeof Bun.CryptoHasher>;

/** Mode, size and content (symlinks: their target) of one path; "missing" when it is gone. */
async function hashPath(hasher: Hasher, path: string): Promise<void> {
  let stats: Stats;
  try {
    stats = lstatSync(path);
  } catch {
    hasher.update("missing\0");
    return;
  }
  hasher.update(`${stats.mode.toString(8)} ${stats.size}\0`);
  if (stats.isSymbolicLink()) return void hasher.update(`link:${safe(() => readlinkSync(path))}\0`);
  // Directories (submodules, nested repositories) are covered by their status line.
  if (!stats.isFile()) return;
  if (stats.size <= STREAM_ABOVE_BYTES) return void hasher.update(safe(() => readFileSync(path)));
  await hashStream(hasher, path);
  hasher.update("\0");
}

async function hashStream(hasher: Hasher, path: string): Promise<void> {
  try {
    for await (const chunk of Bun.file(path).stream()) hasher.update(chunk);
  } catch (error) {
    hasher.update(`unreadable:${String(error)}`);
  }
}

/** Unreadable content still yields a stable value, so the fingerprint stays comparable. */
function safe<T extends string | Uint8Array>(read: () => T): T | string {
  try {
    return read();
  } catch (error) {
    return `unreadable:${(error as NodeJS.ErrnoException).code ?? "error"}`;
  }
}

/** The environment for git: no GIT_* variable may redirect it to another repository or index. */
export function gitEnv(base: Record<string, string | undefined>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(base)) if (value !== undefined && !key.startsWith("GIT_")) env[key] = value;
  env.GIT_OPTIONAL_LOCKS = "0";
  // Never prompt (credentials, pager): this runs unattended.
  env.GIT_TERMINAL_PROMPT = "0";
  env.GIT_PAGER = "cat";
  // No machine-wide attributes either (safe-config.ts pins the global file to /dev/null). The
  // system config stays: it is the administrator's, and may hold the safe.directory git needs.
  env.GIT_ATTR_NOSYSTEM = "1";
  // English messages, to recognise "not a git repository".
  env.LC_ALL = "C";
  return env;
}
