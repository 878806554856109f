/**
 * Orchestrator MCP reads `config.yaml` from its working directory when ORCHESTRATOR_CONFIG is unset.
 * MCP clients start servers in the project they have open, so that directory is often a repository
 * someone else wrote — and a config names the commands the server runs and where keys are sent. So
 * the file is a default only when all of this holds (docs/config-discovery.md):
 *  1. the working directory is in no git work tree (no `.git` in it or any directory above): a
 *     clone, whoever made it, can never configure the server;
 *  2. the directory is yours and nobody else can write to it;
 *  3. `config.yaml` is a regular file (not a symlink), yours, mode 0600 — what Orchestrator MCP's own
 *     init writes, and what a checkout or an unpacked archive almost never produces;
 *  4. it is that tool's file by shape (config/seed-shape.ts): one top-level `consult:` block, or a
 *     LiteLLM `model_list`.
 * The loader then reads it through the same hardened path as any config (secure-read.ts). A file that
 * looks like an Orchestrator config but fails 1–3 is skipped with its reason, so a notice can say why.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { seedShapeOf } from "./seed-shape.ts";

export type CwdConfig = { ok: true; path: string } | { ok: false; path: string; reason: string } | undefined;

/** Bounded: a file bigger than any config is not one. */
const MAX_BYTES = 1 << 20;

function gitAbove(dir: string): string | undefined {
  for (let at = dir; ; at = dirname(at)) {
    try {
      lstatSync(join(at, ".git"));
      return at;
    } catch {
      // not here; try the parent
    }
    if (dirname(at) === at) return undefined;
  }
}

/** The file's text when it is a small regular file (no symlink, no FIFO), else undefined. */
function smallFileText(path: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const st = fstatSync(fd);
    return st.isFile() && st.size <= MAX_BYTES ? readFileSync(fd, "utf8") : undefined;
  } finally {
    closeSync(fd);
  }
}

function looksLikeSeed(text: string): boolean {
  try {
    return seedShapeOf(Bun.YAML.parse(text)) !== undefined;
  } catch {
    return false;
  }
}

function ownershipProblem(dir: string, path: string): string | undefined {
  const uid = process.getuid?.();
  const d = lstatSync(dir);
  if (uid !== undefined && d.uid !== uid) return `${dir} is not yours`;
  if ((d.mode & 0o022) !== 0) return `${dir} is group- or world-writable`;
  const f = lstatSync(path);
  if (!f.isFile()) return `${path} is not a regular file`;
  if (uid !== undefined && f.uid !== uid) return `${path} is not yours`;
  if ((f.mode & 0o777) !== 0o600) return `${path} has mode 0${(f.mode & 0o777).toString(8)}, not 0600`;
  return undefined;
}

/** Whether `<cwd>/config.yaml` may configure the server; undefined when there is none or it is not an Orchestrator config. */
export function cwdConfig(cwd: string): CwdConfig {
  const path = join(cwd, "config.yaml");
  const text = smallFileText(path);
  if (text === undefined || !looksLikeSeed(text)) return undefined;
  const repo = gitAbove(cwd);
  if (repo) return { ok: false, path, reason: `the working directory is inside the git repository ${repo}` };
  const problem = ownershipProblem(cwd, path);
  return problem ? { ok: false, path, reason: problem } : { ok: true, path };
}
