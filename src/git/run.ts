/**
 * Runs git through the process layer like every other child: its own process group (the group
 * kill also reaches what git starts: fsmonitor hooks, filters), registered among the live groups
 * so a shutdown ends a slow `git status` too, stderr kept as a bounded tail, and stdout collected
 * only up to a cap — past it the run is ended and reported, never buffered on. And never with a
 * program the repository names (see safe-config.ts): every call goes through here.
 */
import { lstatSync } from "node:fs";
import { runProcess, type ProcessResult } from "../process/spawn.ts";
import { needsDriverScan, overrideArgs, subcommand, subcommandFlags, submoduleConfigs } from "./safe-config.ts";

export type GitOutput = { ok: true; value: string } | { ok: false; reason: "not_git" | "timeout" | "error"; message: string };

export interface GitRunOptions {
  timeoutMs: number;
  /** stdout kept at most; more ends the run as an error. */
  maxBytes: number;
  /** The complete environment (see gitEnv). */
  env: Record<string, string>;
  /** The repository's `git config --list -z` when the caller already read it (see readConfigListing). */
  configListing?: string;
  /** The common git directory, when known: its submodules' configs are scanned for drivers too. */
  commonDir?: string;
}

const MAX_CONFIG_BYTES = 4 * 1024 * 1024;
/** Subcommands that descend into submodules with the submodules' own configuration. */
const RECURSES = new Set(["status", "diff"]);

export async function runGit(cwd: string, args: string[], opts: GitRunOptions): Promise<GitOutput> {
  const listings = needsDriverScan(args) ? await driverListings(cwd, args, opts) : [];
  return spawnGit(cwd, ["--no-pager", ...overrideArgs(listings), ...subcommandFlags(args)], args, opts);
}

/**
 * The effective configuration as `git config --list -z` prints it (includes followed), read with
 * the same leading options (--git-dir, --work-tree) as `args`. Runs no program the config names.
 */
export async function readConfigListing(
  cwd: string,
  opts: Omit<GitRunOptions, "configListing" | "commonDir">,
  leading: readonly string[] = [],
): Promise<GitOutput> {
  return spawnGit(cwd, ["--no-pager", ...overrideArgs([]), ...leading, "config", "--list", "-z"], ["config"], { ...opts, maxBytes: MAX_CONFIG_BYTES });
}

/** The listings whose drivers are blanked: the repository's, and each submodule's where git descends. */
async function driverListings(cwd: string, args: string[], opts: GitRunOptions): Promise<string[]> {
  const sub = subcommand(args) ?? "";
  const leading = args.slice(0, Math.max(0, args.indexOf(sub)));
  const own = opts.configListing ?? (await readConfigListing(cwd, opts, leading));
  const listings = [typeof own === "string" ? own : own.ok ? own.value : ""];
  if (!RECURSES.has(sub)) return listings;
  const common = opts.commonDir ?? (await commonDirOf(cwd, leading, opts));
  for (const file of common ? submoduleConfigs(common) : []) {
    const listed = await spawnGit(cwd, ["--no-pager", ...overrideArgs([]), "config", "--list", "-z", "--includes", "--file", file], ["config"], {
      ...opts,
      maxBytes: MAX_CONFIG_BYTES,
    });
    if (listed.ok) listings.push(listed.value);
  }
  return listings;
}

async function commonDirOf(cwd: string, leading: readonly string[], opts: GitRunOptions): Promise<string | undefined> {
  const out = await spawnGit(cwd, ["--no-pager", ...overrideArgs([]), ...leading, "rev-parse", "--path-format=absolute", "--git-common-dir"], ["rev-parse"], {
    ...opts,
    maxBytes: MAX_CONFIG_BYTES,
  });
  return out.ok ? out.value.trim() : undefined;
}

async function spawnGit(cwd: string, argv: string[], args: string[], opts: GitRunOptions): Promise<GitOutput> {
  const out = new CappedBytes(opts.maxBytes);
  const result = await runProcess({
    command: "git",
    args: argv,
    cwd,
    env: opts.env,
    timeoutMs: opts.timeoutMs,
    // git with optional locks off writes nothing, so there is nothing to let it finish: kill at once.
    graceMs: 0,
    // Short and read-only, under its own timeout: not worth a watchdog's spawn (process/watchdog.ts).
    dieWithServer: false,
    signal: out.overflow.signal,
    onStdout: (chunk) => out.push(chunk),
  });
  return readResult(cwd, args, opts, result, out);
}

function readResult(cwd: string, args: string[], opts: GitRunOptions, result: ProcessResult, out: CappedBytes): GitOutput {
  const what = `git ${args.find((a) => !a.startsWith("-")) ?? ""}`.trim();
  // Before the exit check: git may have exited on its own after the cap was crossed.
  if (out.overflowed) return { ok: false, reason: "error", message: `${what} printed more than ${opts.maxBytes} bytes` };
  switch (result.endReason) {
    case "exit":
      break;
    case "spawn_failed":
      // A missing cwd is "not a repository"; a missing git binary is an error.
      return {
        ok: false,
        reason: result.spawnError === "ENOENT" && !exists(cwd) ? "not_git" : "error",
        message: `could not start git (${result.spawnError ?? "spawn failed"})`,
      };
    case "timeout":
      return { ok: false, reason: "timeout", message: `${what} took longer than ${opts.timeoutMs} ms` };
    default:
      return { ok: false, reason: "error", message: `${what} was stopped (${result.endReason})` };
  }
  if (result.exitCode === 0) return { ok: true, value: out.text() };
  const stderr = result.stderrTail.trim();
  if (/not a git repository/i.test(stderr)) return { ok: false, reason: "not_git", message: stderr };
  return { ok: false, reason: "error", message: stderr || `git exited with ${result.exitCode ?? result.signal ?? "?"}` };
}

/** Bytes up to a cap; the first byte past it aborts the run through `overflow`. */
class CappedBytes {
  readonly overflow = new AbortController();
  private readonly parts: Uint8Array[] = [];
  private size = 0;

  constructor(private readonly maxBytes: number) {}

  get overflowed(): boolean {
    return this.overflow.signal.aborted;
  }

  push(chunk: Uint8Array): void {
    if (this.overflowed) return;
    if (this.size + chunk.length > this.maxBytes) {
      this.overflow.abort("cancelled");
      return;
    }
    // Copied: the reader may reuse the chunk's memory.
    this.parts.push(chunk.slice());
    this.size += chunk.length;
  }

  text(): string {
    // Decoded once, whole: a character split across chunks stays intact (as Response.text() did).
    return new TextDecoder("utf-8", { fatal: false }).decode(Buffer.concat(this.parts, this.size));
  }
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
