/**
 * What keeps git from running a program the repository names. A delegate writes where it works, and
 * that includes `.git/config`, `.git/info/attributes` and `.gitattributes`: a `core.fsmonitor`, a
 * hook, or a filter driver planted there would otherwise be run by our own `git status`, outside any
 * CLI sandbox. Every invocation of ours (src/git/run.ts) gets:
 *
 * - the fixed keys below pinned on the command line (command-line config wins over every file, and
 *   git hands it on to the git processes it starts for submodules);
 * - every driver the repository's configuration defines (`filter.<name>.*`, `diff.<name>.*`,
 *   `merge.<name>.driver`) blanked by name, read from `git config --list` first, which runs
 *   nothing: driver names are free text, so they cannot be listed ahead of time, and attributes
 *   cannot be switched off (`.git/info/attributes` is always read), but an attribute naming a driver
 *   with no command does nothing;
 * - `--no-ext-diff --no-textconv` on `diff`.
 */
import { existsSync, readdirSync, type Dirent } from "node:fs";
import { join } from "node:path";

/** Keys whose value is a program to run (or that make git run one), and what we pin them to. */
export const PINNED_CONFIG: readonly (readonly [string, string])[] = [
  ["core.fsmonitor", "false"],
  // No hook runs: `worktree add` would run post-checkout from here.
  ["core.hooksPath", "/dev/null"],
  ["core.attributesFile", "/dev/null"],
  ["core.pager", "cat"],
  ["core.editor", "false"],
  ["sequence.editor", "false"],
  ["core.askPass", ""],
  // An empty value resets the list of helpers.
  ["credential.helper", ""],
  // No transport at all: covers core.sshCommand, core.gitProxy, remote.*.uploadpack/receivepack.
  ["protocol.allow", "never"],
  ["core.sshCommand", "false"],
  ["core.gitProxy", ""],
  ["core.alternateRefsCommand", ""],
  ["diff.external", ""],
  ["gpg.program", "false"],
  ["gpg.ssh.program", "false"],
  ["gpg.x509.program", "false"],
  ["gpg.ssh.defaultKeyCommand", ""],
  ["commit.gpgSign", "false"],
  ["tag.gpgSign", "false"],
  ["log.showSignature", "false"],
  ["gc.auto", "0"],
  ["maintenance.auto", "false"],
  ["submodule.recurse", "false"],
  ["core.untrackedCache", "false"],
];

/** Per driver section, the variables that name a program (blanked) or make a missing one fatal. */
const DRIVER_VARIABLES: Record<string, readonly (readonly [string, string])[]> = {
  filter: [
    ["clean", ""],
    ["smudge", ""],
    ["process", ""],
    ["required", "false"],
  ],
  diff: [
    ["command", ""],
    ["textconv", ""],
  ],
  merge: [["driver", ""]],
};

/** Subcommands that read no file content and start no helper: no config listing is needed first. */
const RUNS_NOTHING = new Set(["rev-parse", "config"]);

export function needsDriverScan(args: readonly string[]): boolean {
  return !RUNS_NOTHING.has(subcommand(args) ?? "");
}

/** The first argument that is not an option (`--git-dir=…` and the like come before it). */
export function subcommand(args: readonly string[]): string | undefined {
  return args.find((a) => !a.startsWith("-"));
}

/** Driver names (by section) defined in a `git config --list -z` listing. */
export function driverNames(listing: string): Map<string, Set<string>> {
  const names = new Map<string, Set<string>>();
  for (const entry of listing.split("\0")) {
    const key = entry.slice(0, entry.includes("\n") ? entry.indexOf("\n") : entry.length);
    const section = key.slice(0, key.indexOf("."));
    const last = key.lastIndexOf(".");
    if (!(section in DRIVER_VARIABLES) || last <= section.length) continue;
    const name = key.slice(section.length + 1, last);
    const set = names.get(section) ?? new Set<string>();
    set.add(name);
    names.set(section, set);
  }
  return names;
}

/** `-c key=value` pairs for the pinned keys and every named driver in the listings. */
export function overrideArgs(listings: readonly string[]): string[] {
  const pairs: [string, string][] = PINNED_CONFIG.map(([k, v]) => [k, v]);
  for (const listing of listings) {
    for (const [section, names] of driverNames(listing)) {
      for (const name of names) for (const [variable, value] of DRIVER_VARIABLES[section] ?? []) pairs.push([`${section}.${name}.${variable}`, value]);
    }
  }
  return [...new Set(pairs.map(([k, v]) => `${k}=${v}`))].flatMap((pair) => ["-c", pair]);
}

/** Flags a subcommand gets so it never applies an external diff or a textconv program. */
export function subcommandFlags(args: readonly string[]): string[] {
  const sub = subcommand(args);
  if (sub === undefined) return [...args];
  const at = args.indexOf(sub);
  if (sub !== "diff") return [...args];
  return [...args.slice(0, at + 1), "--no-ext-diff", "--no-textconv", ...args.slice(at + 1)];
}

/**
 * The config files of the submodules under a common git directory (`modules/<name>/config`, nested
 * ones too): `git status` recurses into them with their own configuration, so their drivers are
 * blanked as well. A directory holding HEAD is a submodule's git directory; any other is a step of
 * a name with a slash (modules/lib/x). Bounded, and unreadable directories are skipped.
 */
export function submoduleConfigs(commonDir: string, limit = 200): string[] {
  const found: string[] = [];
  const walk = (dir: string, depth: number): void => {
    if (depth > 16 || found.length >= limit) return;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (!entry.isDirectory()) continue;
      const sub = join(dir, entry.name);
      if (!existsSync(join(sub, "HEAD"))) {
        walk(sub, depth + 1);
        continue;
      }
      found.push(join(sub, "config"));
      walk(join(sub, "modules"), depth + 1);
    }
  };
  walk(join(commonDir, "modules"), 0);
  return found;
}
