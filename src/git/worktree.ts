/**
 * The isolated_write worktree (seed 001): a detached git worktree at the workflow's latest applied
 * commit, the agent's writes captured with `git add -A` and the staged diff against that baseline
 * (so created files are in the patch too), then removed. Its git directory is read once, at
 * creation, and passed explicitly (--git-dir/--work-tree) to every later call: the worktree's .git
 * file sits where the agent writes, so what capture diffs must not be decided by that file.
 */
import { readFileSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { gitEnv } from "./fingerprint.ts";
import { runGit, type GitOutput } from "./run.ts";

export interface Worktree {
  path: string;
  /** The worktree's own git directory (…/.git/worktrees/<name>), pinned at creation. */
  gitdir: string;
  /** The repository's common git directory, for removing the worktree. */
  commonDir: string;
  baseline: string;
}

export type Captured =
  | { ok: true; patch: string; files: { status: string; path: string }[]; ignored: string[] }
  | { ok: false; reason: "nested_repository" | "git_failed"; message: string; nested?: string[] };

const TIMEOUT_MS = 120_000;
const SMALL = 1 << 20;
/** A patch larger than this is refused rather than buffered (the store keeps it whole). */
const MAX_PATCH = 32 << 20;

function git(cwd: string, args: string[], maxBytes = SMALL): Promise<GitOutput> {
  return runGit(cwd, args, { timeoutMs: TIMEOUT_MS, maxBytes, env: gitEnv(process.env) });
}

/** `git worktree add --detach`, then the gitdir read from the new .git file before anyone else runs there. */
export async function createWorktree(repo: string, path: string, commit: string): Promise<GitOutput & { worktree?: Worktree }> {
  const common = await git(repo, ["rev-parse", "--path-format=absolute", "--git-common-dir"]);
  if (!common.ok) return common;
  const commonDir = common.value.trim();
  const added = await git(repo, ["worktree", "add", "--detach", "--quiet", path, commit]);
  if (!added.ok) return added;
  const gitdir = readGitFile(path);
  if (!gitdir) return { ok: false, reason: "error", message: `${path}/.git does not name a git directory` };
  return { ok: true, value: path, worktree: { path, gitdir, commonDir, baseline: commit } };
}

function readGitFile(path: string): string | undefined {
  try {
    const line = readFileSync(resolve(path, ".git"), "utf8").trim();
    const match = /^gitdir: (.+)$/.exec(line);
    if (!match?.[1]) return undefined;
    return isAbsolute(match[1]) ? match[1] : resolve(path, match[1]);
  } catch {
    return undefined;
  }
}

function pinned(wt: Worktree, args: string[]): string[] {
  return [`--git-dir=${wt.gitdir}`, `--work-tree=${wt.path}`, ...args];
}

/**
 * Stages everything and returns the staged diff against the baseline. A repository created inside
 * the worktree fails the capture (git add refuses it, or stages it as a gitlink no patch carries):
 * the caller keeps the worktree, which then holds the only copy of the work.
 */
export async function captureWorktree(wt: Worktree): Promise<Captured> {
  const added = await git(wt.path, pinned(wt, ["add", "-A"]));
  if (!added.ok) {
    const nested = /does not have a commit checked out|embedded git repository/i.test(added.message);
    return { ok: false, reason: nested ? "nested_repository" : "git_failed", message: added.message };
  }
  const raw = await git(wt.path, pinned(wt, ["diff", "--cached", "--raw", "-z", "--no-renames", wt.baseline]), MAX_PATCH);
  if (!raw.ok) return { ok: false, reason: "git_failed", message: raw.message };
  const files = parseRaw(raw.value);
  const nested = files.filter((f) => f.gitlink).map((f) => f.path);
  if (nested.length > 0)
    return { ok: false, reason: "nested_repository", message: `a git repository was created inside the worktree at ${nested.join(", ")}`, nested };
  const patch = await git(wt.path, pinned(wt, ["diff", "--cached", "--binary", "--full-index", "--no-renames", wt.baseline]), MAX_PATCH);
  if (!patch.ok) return { ok: false, reason: "git_failed", message: patch.message };
  const ignored = await git(wt.path, pinned(wt, ["ls-files", "--others", "--ignored", "--exclude-standard", "--directory", "-z"]), SMALL);
  return {
    ok: true,
    patch: patch.value,
    files: files.map(({ status, path }) => ({ status, path })),
    ignored: ignored.ok ? ignored.value.split("\0").filter(Boolean) : [],
  };
}

/** `:old new oldsha newsha S\0path\0` records; a 160000 new mode is a gitlink (a nested repository). */
function parseRaw(out: string): { status: string; path: string; gitlink: boolean }[] {
  const parts = out.split("\0");
  const files: { status: string; path: string; gitlink: boolean }[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const head = (parts[i] ?? "").split(" ");
    const path = parts[i + 1] ?? "";
    if (!head[0]?.startsWith(":") || !path) continue;
    files.push({ status: head[4] ?? "?", path, gitlink: head[1] === "160000" });
  }
  return files;
}

export async function removeWorktree(wt: Worktree): Promise<GitOutput> {
  return git(wt.commonDir, [`--git-dir=${wt.commonDir}`, "worktree", "remove", "--force", "--force", wt.path]);
}

/** HEAD of the user's checkout: what apply_patch must have moved. */
export async function headCommit(repo: string): Promise<GitOutput> {
  const out = await git(repo, ["rev-parse", "--verify", "HEAD"]);
  return out.ok ? { ok: true, value: out.value.trim() } : out;
}
