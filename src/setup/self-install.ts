/**
 * `orchestrate init` offers to copy the running binary to ~/.local/bin/orchestrate, the place
 * install.sh uses and the plugin launcher (plugin/bin/orchestrate-mcp) looks first. A binary built
 * from a clone (dist/orchestrate-<os>-<arch>) is otherwise registered with clients by a path inside
 * the clone, which breaks the day the clone moves or is rebuilt mid-session.
 */
import { chmodSync, copyFileSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { homeDir, type Env } from "../config/paths.ts";

export interface SelfInstallDeps {
  /** How this binary is started: [absolute executable] for a compiled binary, [bun, script] from sources. */
  self: string[];
  env: Env;
  ask: (question: string, initial: boolean) => Promise<boolean>;
  say: (line: string) => void;
}

export function localBinTarget(env: Env): string {
  return join(homeDir(env), ".local", "bin", "orchestrate");
}

/** Returns how clients should start orchestrate afterwards: the installed copy when there is one. */
export async function offerSelfInstall(deps: SelfInstallDeps): Promise<string[]> {
  const { self, env, say } = deps;
  const target = localBinTarget(env);
  const [exe] = self;
  if (self.length !== 1 || exe === undefined) {
    say(
      `\nRunning from sources, so there is no binary to install: \`npm run build\`, then run dist/orchestrate-${process.platform}-${process.arch} init to put it at ${target}.`,
    );
    return self;
  }
  const state = compare(exe, target);
  // Installed elsewhere on purpose (ORCHESTRATE_INSTALL_DIR, a package manager) and found on PATH: keep it.
  if (state === "absent" && onPathAs(exe, env)) return self;
  if (state === "same-file" || state === "identical") {
    say(`\n✓ ${target} is this binary.`);
    pathAdvice(target, env, say);
    return [target];
  }
  const verb = state === "other" ? `Replace ${target} (a different binary) with this one` : `Install this binary as ${target}`;
  if (!(await deps.ask(`${verb}? Clients are then registered with that path.`, true))) return self;
  const copied = copyInto(exe, target);
  if (copied) {
    say(`✗ could not write ${target}: ${copied}. Clients will be registered with ${exe}.`);
    return self;
  }
  say(`✓ installed ${target}`);
  pathAdvice(target, env, say);
  return [target];
}

type Comparison = "absent" | "same-file" | "identical" | "other";

/** Whether `orchestrate` on this PATH is the running binary itself. */
function onPathAs(exe: string, env: Env): boolean {
  const found = Bun.which("orchestrate", { PATH: env.PATH ?? "" });
  if (!found) return false;
  try {
    return realpathSync(found) === realpathSync(exe);
  } catch {
    return false;
  }
}

function compare(exe: string, target: string): Comparison {
  const there = statSync(target, { throwIfNoEntry: false });
  if (!there) return "absent";
  if (realpathSync(target) === realpathSync(exe)) return "same-file";
  const here = statSync(exe);
  if (here.size !== there.size) return "other";
  return readFileSync(exe).equals(readFileSync(target)) ? "identical" : "other";
}

/** Copy beside the target, then rename over it: a running copy of the old binary keeps its inode. */
function copyInto(exe: string, target: string): string | undefined {
  const staged = `${target}.installing-${process.pid}`;
  try {
    mkdirSync(dirname(target), { recursive: true, mode: 0o755 });
    copyFileSync(exe, staged);
    chmodSync(staged, 0o755);
    renameSync(staged, target);
    return undefined;
  } catch (error) {
    rmSync(staged, { force: true });
    return error instanceof Error ? error.message : String(error);
  }
}

function pathAdvice(target: string, env: Env, say: (line: string) => void): void {
  const dir = dirname(target);
  const onPath = (env.PATH ?? "").split(delimiter).some((entry) => entry !== "" && sameDir(entry, dir));
  if (onPath) return;
  say(
    `  ${dir} is not on your PATH, so \`orchestrate\` will not be found in a new shell. Add it to your shell profile (~/.bashrc, ~/.zshrc, ~/.profile):\n    export PATH="${dir}:$PATH"`,
  );
}

function sameDir(a: string, b: string): boolean {
  if (a === b) return true;
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}
