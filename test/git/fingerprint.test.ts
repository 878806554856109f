import { afterEach, describe, expect, test } from "bun:test";
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fingerprintTree, gitEnv, type FingerprintResult } from "../../src/git/fingerprint.ts";
import { runGit } from "../../src/git/run.ts";
import { killAllLive, liveCount } from "../../src/process/live.ts";

const TIMEOUT = { timeoutMs: 10_000 };
/** Setup git runs isolated from the machine's config; fingerprintTree itself gets no such help. */
const gitSetupEnv = {
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  HOME: tmpdir(),
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@t",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@t",
};

function git(cwd: string, ...args: string[]): string {
  const proc = Bun.spawnSync(["git", ...args], { cwd, env: gitSetupEnv, stdout: "pipe", stderr: "pipe" });
  if (proc.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${proc.stderr.toString()}`);
  return proc.stdout.toString();
}

/**
 * A committed repo with: a tracked file, a file already dirty, an untracked file, an untracked
 * symlink, an ignored file, a script, and a nested directory.
 */
function makeRepo(): string {
  const dir = mkdtempSync(join(tmpdir(), "orch-fp-"));
  git(dir, "init", "-q", "-b", "main");
  writeFileSync(join(dir, ".gitignore"), "*.log\n");
  writeFileSync(join(dir, "tracked.txt"), "tracked-1\n");
  writeFileSync(join(dir, "dirty.txt"), "dirty-0\n");
  writeFileSync(join(dir, "script.sh"), "#!/bin/sh\necho hi\n");
  mkdirSync(join(dir, "sub/deep"), { recursive: true });
  writeFileSync(join(dir, "sub/deep/nested.txt"), "nested-1\n");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "initial");
  writeFileSync(join(dir, "dirty.txt"), "dirty-1\n");
  writeFileSync(join(dir, "untracked.txt"), "untracked-1\n");
  symlinkSync("tracked.txt", join(dir, "link"));
  writeFileSync(join(dir, "app.log"), "log-1\n");
  return dir;
}

async function fp(cwd: string): Promise<string> {
  const result = await fingerprintTree(cwd, TIMEOUT);
  if (!result.ok) throw new Error(`fingerprint failed: ${result.reason} ${result.message}`);
  return result.value;
}

const MUTATIONS: [string, (dir: string) => void][] = [
  ["edit a tracked clean file", (d) => writeFileSync(join(d, "tracked.txt"), "tracked-2\n")],
  ["edit a file that was already dirty (same size)", (d) => writeFileSync(join(d, "dirty.txt"), "dirty-2\n")],
  ["add an untracked file", (d) => writeFileSync(join(d, "new.txt"), "new\n")],
  ["add an untracked file in a new directory", (d) => (mkdirSync(join(d, "fresh")), writeFileSync(join(d, "fresh/f.txt"), "f\n"))],
  ["edit an untracked file (same size)", (d) => writeFileSync(join(d, "untracked.txt"), "untracked-2\n")],
  ["retarget an untracked symlink", (d) => (unlinkSync(join(d, "link")), symlinkSync("dirty.txt", join(d, "link")))],
  ["delete a tracked file", (d) => rmSync(join(d, "tracked.txt"))],
  ["delete an untracked file", (d) => rmSync(join(d, "untracked.txt"))],
  ["rename a tracked file in the tree", (d) => renameSync(join(d, "tracked.txt"), join(d, "moved.txt"))],
  ["rename a tracked file with git mv", (d) => void git(d, "mv", "tracked.txt", "moved.txt")],
  ["chmod +x a tracked file", (d) => chmodSync(join(d, "script.sh"), 0o755)],
  ["stage a dirty file", (d) => void git(d, "add", "dirty.txt")],
  ["stage then edit back is still different from unstaged", (d) => (git(d, "add", "dirty.txt"), writeFileSync(join(d, "dirty.txt"), "dirty-0\n"))],
  ["commit (HEAD moves)", (d) => void git(d, "commit", "-q", "--allow-empty", "-m", "empty")],
  ["edit a file in a nested directory", (d) => writeFileSync(join(d, "sub/deep/nested.txt"), "nested-2\n")],
];

describe("fingerprintTree changes on every kind of tree change", () => {
  for (const [name, mutate] of MUTATIONS) {
    test(name, async () => {
      const dir = makeRepo();
      const before = await fp(dir);
      mutate(dir);
      expect(await fp(dir)).not.toBe(before);
    });
  }

  test("an edit outside the cwd's subdirectory is seen from that subdirectory", async () => {
    const dir = makeRepo();
    const cwd = join(dir, "sub/deep");
    const before = await fp(cwd);
    writeFileSync(join(dir, "untracked.txt"), "untracked-9\n");
    expect(await fp(cwd)).not.toBe(before);
  });
});

describe("fingerprintTree stays the same when nothing that matters changed", () => {
  test("nothing changed → identical", async () => {
    const dir = makeRepo();
    expect(await fp(dir)).toBe(await fp(dir));
  });

  test("editing an ignored file → identical", async () => {
    const dir = makeRepo();
    const before = await fp(dir);
    writeFileSync(join(dir, "app.log"), "log-2 and more\n");
    writeFileSync(join(dir, "other.log"), "new ignored\n");
    expect(await fp(dir)).toBe(before);
  });

  test("touching a file without changing it → identical", async () => {
    const dir = makeRepo();
    const before = await fp(dir);
    const later = new Date(Date.now() + 5000);
    utimesSync(join(dir, "tracked.txt"), later, later);
    utimesSync(join(dir, "dirty.txt"), later, later);
    expect(await fp(dir)).toBe(before);
  });
});

describe("fingerprintTree is read-only", () => {
  function countFiles(dir: string): number {
    return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).length;
  }

  test("the index and the object store are untouched, even with a stale index", async () => {
    const dir = makeRepo();
    git(dir, "add", "dirty.txt");
    // A stale stat cache is what would make a plain `git status` rewrite the index.
    const later = new Date(Date.now() + 5000);
    utimesSync(join(dir, "tracked.txt"), later, later);
    writeFileSync(join(dir, "sub/deep/nested.txt"), "nested-X\n");
    const index = join(dir, ".git/index");
    const before = {
      bytes: readFileSync(index),
      mtimeMs: statSync(index).mtimeMs,
      objects: countFiles(join(dir, ".git/objects")),
      entries: readdirSync(join(dir, ".git")).sort(),
    };
    await fp(dir);
    await fp(join(dir, "sub"));
    expect(readFileSync(index).equals(before.bytes)).toBe(true);
    expect(statSync(index).mtimeMs).toBe(before.mtimeMs);
    expect(countFiles(join(dir, ".git/objects"))).toBe(before.objects);
    expect(readdirSync(join(dir, ".git")).sort()).toEqual(before.entries);
  });
});

describe("fingerprintTree failures are values", () => {
  const saved = { GIT_DIR: process.env.GIT_DIR, GIT_WORK_TREE: process.env.GIT_WORK_TREE };
  afterEach(() => {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  });

  test("a directory outside any repository → not_git", async () => {
    const result = await fingerprintTree(mkdtempSync(join(tmpdir(), "orch-nogit-")), TIMEOUT);
    expect(result).toMatchObject({ ok: false, reason: "not_git" });
  });

  test("a missing directory → not_git", async () => {
    const result = await fingerprintTree(join(tmpdir(), "orch-does-not-exist-"), TIMEOUT);
    expect(result).toMatchObject({ ok: false, reason: "not_git" });
  });

  test("GIT_DIR / GIT_WORK_TREE in our own env cannot point git at another repository", async () => {
    const other = makeRepo();
    process.env.GIT_DIR = join(other, ".git");
    process.env.GIT_WORK_TREE = other;
    const result = await fingerprintTree(mkdtempSync(join(tmpdir(), "orch-nogit-")), TIMEOUT);
    expect(result).toMatchObject({ ok: false, reason: "not_git" });
  });

  test("a git that hangs is killed at the timeout → timeout", async () => {
    const dir = makeRepo();
    // A git that hangs, as one on a slow or stuck filesystem would, with a child of its own.
    const { marker, restore } = hangingGitOnPath(dir);
    try {
      const started = Date.now();
      const result: FingerprintResult = await fingerprintTree(dir, { timeoutMs: 500 });
      expect(result).toMatchObject({ ok: false, reason: "timeout" });
      expect(Date.now() - started).toBeLessThan(3000);
      expect(gone(Number(readFileSync(marker, "utf8")))).toBe(true);
    } finally {
      restore();
    }
  });
});

/** A `git` first on PATH that starts a child, writes the child's pid, then waits on it. */
function hangingGitOnPath(dir: string): { marker: string; restore: () => void } {
  const bin = mkdtempSync(join(tmpdir(), "orch-hanging-git-"));
  const marker = join(dir, "hang-pid");
  writeFileSync(join(bin, "git"), `#!/bin/sh\nsleep 30 &\necho $! > ${marker}.tmp && mv ${marker}.tmp ${marker}\nwait\n`);
  chmodSync(join(bin, "git"), 0o755);
  const saved = process.env.PATH;
  process.env.PATH = `${bin}:${saved ?? ""}`;
  return { marker, restore: () => void (process.env.PATH = saved) };
}

function gone(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return true;
  }
}

describe("fingerprint: CLI bookkeeping files", () => {
  test("an ignored path (a CLI's own state file) does not change the fingerprint; other files still do", async () => {
    const repo = realpathSync(mkdtempSync(join(tmpdir(), "fp-ignore-")));
    const git = (...args: string[]) =>
      Bun.spawnSync(["git", ...args], {
        cwd: repo,
        env: { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@e.invalid", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@e.invalid" },
      });
    git("init", "-q");
    writeFileSync(join(repo, "a.txt"), "a\n");
    git("add", "-A");
    git("commit", "-qm", "init");
    const ignorePaths = [join(repo, ".grok", "settings.json")];
    const before = await fingerprintTree(repo, { timeoutMs: 10_000, ignorePaths });
    mkdirSync(join(repo, ".grok"));
    writeFileSync(join(repo, ".grok", "settings.json"), '{"model":"grok-4"}\n');
    const after = await fingerprintTree(repo, { timeoutMs: 10_000, ignorePaths });
    expect(after).toEqual(before);
    const without = await fingerprintTree(repo, { timeoutMs: 10_000 });
    expect(without).not.toEqual(before);
    writeFileSync(join(repo, ".grok", "other.json"), "{}\n");
    expect(await fingerprintTree(repo, { timeoutMs: 10_000, ignorePaths })).not.toEqual(before);
  });
});

describe("git runs through the process layer", () => {
  async function markerPid(marker: string): Promise<number> {
    // Waits on the fake's own signal (its pid file), not on a fixed sleep.
    for (let i = 0; i < 500; i++) {
      try {
        return Number(readFileSync(marker, "utf8"));
      } catch {
        await Bun.sleep(10);
      }
    }
    throw new Error("the fake git never started");
  }

  test("a running fingerprint is a live group: shutdown ends git and what it started", async () => {
    const dir = makeRepo();
    const { marker, restore } = hangingGitOnPath(dir);
    try {
      const before = liveCount();
      const running = fingerprintTree(dir, { timeoutMs: 60_000 });
      const childPid = await markerPid(marker);
      // rev-parse and the config listing run together: one live group each, at least one by now.
      expect(liveCount()).toBeGreaterThan(before);
      const started = Date.now();
      await killAllLive("shutdown");
      expect(await running).toMatchObject({ ok: false, reason: "error" });
      expect(Date.now() - started).toBeLessThan(3000);
      expect(gone(childPid)).toBe(true);
      expect(liveCount()).toBe(before);
    } finally {
      restore();
    }
  });

  test("stdout past the cap ends git and is an error, never a fingerprint of part of the status", async () => {
    const dir = makeRepo();
    for (let i = 0; i < 50; i++) writeFileSync(join(dir, `untracked-${i}.txt`), "x\n");
    const out = await runGit(dir, ["status", "--porcelain=v2", "-z", "-uall"], { timeoutMs: 10_000, maxBytes: 100, env: gitEnv(process.env) });
    expect(out).toEqual({ ok: false, reason: "error", message: "git status printed more than 100 bytes" });
    const whole = await runGit(dir, ["status", "--porcelain=v2", "-z", "-uall"], { timeoutMs: 10_000, maxBytes: 1 << 20, env: gitEnv(process.env) });
    expect(whole.ok && whole.value.split("\0").filter((e) => e.startsWith("? untracked-")).length).toBe(50);
  });

  test("NUL-separated output is kept byte for byte: a path with a newline and a CR in it", async () => {
    const dir = makeRepo();
    writeFileSync(join(dir, "odd\r\nname.txt"), "x\n");
    const before = await fp(dir);
    writeFileSync(join(dir, "odd\r\nname.txt"), "y\n");
    expect(await fp(dir)).not.toBe(before);
    const out = await runGit(dir, ["status", "--porcelain=v2", "-z", "-uall"], { timeoutMs: 10_000, maxBytes: 1 << 20, env: gitEnv(process.env) });
    expect(out.ok && out.value.split("\0")).toContain("? odd\r\nname.txt");
  });
});
