/**
 * A delegate writes where it works, .git included. Nothing it names in the repository's git
 * configuration or attributes may be run by orchestrate's own git (src/git/safe-config.ts), and a
 * change to that configuration, a hook or an info file is a changed tree (src/git/fingerprint.ts).
 */
import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, realpathSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fingerprintTree } from "../../src/git/fingerprint.ts";
import { captureWorktree, createWorktree, removeWorktree } from "../../src/git/worktree.ts";

const env = {
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  HOME: tmpdir(),
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@t",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@t",
  GIT_ALLOW_PROTOCOL: "file",
};

function git(cwd: string, ...args: string[]): string {
  const proc = Bun.spawnSync(["git", ...args], { cwd, env, stdout: "pipe", stderr: "pipe" });
  if (proc.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${proc.stderr.toString()}`);
  return proc.stdout.toString();
}

/** A committed repo, and outside it the marker a planted program would create. */
function world(): { repo: string; marker: string; plant: (name: string) => string } {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "orch-planted-")));
  const repo = join(base, "repo");
  mkdirSync(repo);
  git(repo, "init", "-q", "-b", "main");
  writeFileSync(join(repo, "a.txt"), "a\n");
  git(repo, "add", "-A");
  git(repo, "commit", "-q", "-m", "init");
  const marker = join(base, "ran");
  /** A script that leaves the marker (named after what ran it) and passes its input through. */
  const plant = (name: string): string => {
    const script = join(base, `${name}.sh`);
    writeFileSync(script, `#!/bin/sh\necho ${name} >> ${marker}\ncat\n`);
    chmodSync(script, 0o755);
    return script;
  };
  return { repo, marker, plant };
}

async function fp(cwd: string): Promise<string> {
  const result = await fingerprintTree(cwd, { timeoutMs: 10_000 });
  if (!result.ok) throw new Error(`fingerprint failed: ${result.message}`);
  return result.value;
}

/** Makes git compare a.txt by content (its stat no longer matches the index). */
function statDirty(repo: string): void {
  const later = new Date(Date.now() + 5000);
  utimesSync(join(repo, "a.txt"), later, later);
}

describe("a program planted in the repository's git configuration never runs", () => {
  test("core.fsmonitor: not run by the fingerprint, and the fingerprint changes", async () => {
    const { repo, marker, plant } = world();
    const before = await fp(repo);
    git(repo, "config", "core.fsmonitor", plant("fsmonitor"));
    const after = await fp(repo);
    expect(existsSync(marker)).toBe(false);
    expect(after).not.toBe(before);
  });

  test("a filter driver (clean and process) named by .git/info/attributes: not run, fingerprint changes", async () => {
    const { repo, marker, plant } = world();
    const before = await fp(repo);
    git(repo, "config", "filter.planted.clean", plant("clean"));
    git(repo, "config", "filter.planted.process", plant("process"));
    git(repo, "config", "filter.planted.required", "true");
    writeFileSync(join(repo, ".git/info/attributes"), "* filter=planted\n");
    statDirty(repo);
    const after = await fp(repo);
    expect(existsSync(marker)).toBe(false);
    expect(after).not.toBe(before);
  });

  test("a driver named in an included file, with a .gitattributes in the tree, is blanked too", async () => {
    const { repo, marker, plant } = world();
    const include = join(repo, "..", "extra.gitconfig");
    writeFileSync(include, `[filter "Odd.Name"]\n\tclean = ${plant("included")}\n`);
    git(repo, "config", "include.path", include);
    writeFileSync(join(repo, ".gitattributes"), "* filter=Odd.Name\n");
    statDirty(repo);
    await fp(repo);
    expect(existsSync(marker)).toBe(false);
  });

  test("a submodule's own filter driver is blanked when status descends into it", async () => {
    const { repo, marker, plant } = world();
    const upstream = join(repo, "..", "upstream");
    mkdirSync(upstream);
    git(upstream, "init", "-q", "-b", "main");
    writeFileSync(join(upstream, "s.txt"), "s\n");
    git(upstream, "add", "-A");
    git(upstream, "commit", "-q", "-m", "s");
    git(repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", upstream, "lib/sub");
    git(repo, "commit", "-q", "-m", "sub");
    const sub = join(repo, "lib/sub");
    git(sub, "config", "filter.subplant.clean", plant("subclean"));
    git(sub, "config", "core.fsmonitor", plant("subfsmonitor"));
    writeFileSync(join(repo, ".git/modules/lib/sub/info/attributes"), "* filter=subplant\n");
    const later = new Date(Date.now() + 5000);
    utimesSync(join(sub, "s.txt"), later, later);
    await fp(repo);
    expect(existsSync(marker)).toBe(false);
  });

  test("isolated_write's worktree: no post-checkout hook, no external diff or textconv in the capture", async () => {
    const { repo, marker, plant } = world();
    writeFileSync(join(repo, ".git/hooks/post-checkout"), `#!/bin/sh\necho hook >> ${marker}\n`);
    chmodSync(join(repo, ".git/hooks/post-checkout"), 0o755);
    git(repo, "config", "diff.planted.command", plant("diffcmd"));
    git(repo, "config", "diff.planted.textconv", plant("textconv"));
    git(repo, "config", "diff.external", plant("external"));
    git(repo, "config", "filter.planted.smudge", plant("smudge"));
    writeFileSync(join(repo, ".git/info/attributes"), "* diff=planted filter=planted\n");
    const head = git(repo, "rev-parse", "HEAD").trim();
    const path = join(repo, "..", "wt");
    const created = await createWorktree(repo, path, head);
    expect(created.ok).toBe(true);
    writeFileSync(join(path, "a.txt"), "changed\n");
    const captured = await captureWorktree(created.worktree!);
    expect(captured.ok && captured.patch).toContain("+changed");
    await removeWorktree(created.worktree!);
    expect(existsSync(marker)).toBe(false);
  });
});

describe("the repository's control files are part of the fingerprint", () => {
  const changes: [string, (repo: string) => void][] = [
    ["a new hook", (r) => writeFileSync(join(r, ".git/hooks/pre-commit"), "#!/bin/sh\n")],
    ["an edited info/exclude", (r) => writeFileSync(join(r, ".git/info/exclude"), "*.secret\n")],
    ["a new info/attributes", (r) => writeFileSync(join(r, ".git/info/attributes"), "* -text\n")],
    ["a config.worktree (read or not)", (r) => writeFileSync(join(r, ".git/config.worktree"), "[core]\n\teditor = x\n")],
    ["a harmless-looking config key", (r) => void git(r, "config", "user.name", "someone else")],
    [
      "an edit to a file the config includes",
      (r) => {
        const include = join(r, "..", "inc.gitconfig");
        writeFileSync(include, "[core]\n\tabbrev = 12\n");
        git(r, "config", "include.path", include);
      },
    ],
  ];
  for (const [name, change] of changes) {
    test(name, async () => {
      const { repo } = world();
      const before = await fp(repo);
      change(repo);
      expect(await fp(repo)).not.toBe(before);
    });
  }

  test("a linked worktree's fingerprint sees the shared config and hooks", async () => {
    const { repo } = world();
    const path = join(repo, "..", "linked");
    git(repo, "worktree", "add", "-q", "--detach", path);
    const before = await fp(path);
    writeFileSync(join(repo, ".git/hooks/post-merge"), "#!/bin/sh\n");
    expect(await fp(path)).not.toBe(before);
  });
});
