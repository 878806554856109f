/**
 * What the wizard learnt of each CLI binary that only changes with the binary — its version, its
 * build (variant) and which required flags its help lacks — kept in the state dir, so a second
 * `orchestrate init` lists the CLIs without starting each one three times (issue 11: six node
 * CLIs contending for 2 cores took ~5 s). Keyed by the binary's real file (path, size, mtime,
 * inode), the nearest package.json beside it (an npm upgrade rewrites both) and orchestrate's own
 * version (the flags it requires). Sign-in is never cached: it changes without the binary.
 * Best effort: an unreadable or foreign file is an empty cache, a failed write is ignored.
 */
import { mkdirSync, readFileSync, realpathSync, renameSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Backend } from "../backends/index.ts";
import { defaultStorePath } from "../store/paths.ts";
import { VERSION } from "../version.ts";
import { packageJsonsAbove } from "./package-version.ts";

export interface CachedFindings {
  version?: string;
  variant?: string;
  /** Required flags the help did not list, as detect.ts's MissingFlag. */
  missingFlags: { flag: string; since: string }[];
}

interface Entry extends CachedFindings {
  key: string;
}

type Entries = Record<string, Entry>;

export interface ProbeCache {
  get(backend: Backend, path: string): CachedFindings | undefined;
  set(backend: Backend, path: string, findings: CachedFindings): void;
  /** Writes what changed; nothing when nothing did. */
  save(): void;
}

/** `<state dir>/probe-cache.json`, beside the store. */
export function probeCachePath(env: Record<string, string | undefined>): string {
  return join(dirname(defaultStorePath(env)), "probe-cache.json");
}

export function openProbeCache(file: string): ProbeCache {
  const entries = readEntries(file);
  let changed = false;
  return {
    get(backend, path) {
      const entry = entries[`${backend}\0${path}`];
      const key = binaryKey(backend, path);
      if (!entry || key === undefined || entry.key !== key) return undefined;
      return {
        ...(entry.version ? { version: entry.version } : {}),
        ...(entry.variant !== undefined ? { variant: entry.variant } : {}),
        missingFlags: entry.missingFlags,
      };
    },
    set(backend, path, findings) {
      const key = binaryKey(backend, path);
      if (key === undefined) return;
      entries[`${backend}\0${path}`] = { key, ...findings };
      changed = true;
    },
    save() {
      if (changed) writeEntries(file, entries);
    },
  };
}

/** What identifies one installed build of a CLI; undefined when the binary cannot be read. */
function binaryKey(backend: Backend, path: string): string | undefined {
  try {
    const real = realpathSync(path);
    const bin = statSync(real);
    const pkg = nearestPackageJson(real);
    return [VERSION, backend, real, bin.size, bin.mtimeMs, bin.ino, pkg ?? "-"].join("|");
  } catch {
    return undefined;
  }
}

/** size:mtime of the nearest package.json above the binary (an npm upgrade rewrites it). */
function nearestPackageJson(real: string): string | undefined {
  for (const file of packageJsonsAbove(real)) {
    const st = statSync(file, { throwIfNoEntry: false });
    if (st?.isFile()) return `${st.size}:${st.mtimeMs}`;
  }
  return undefined;
}

function readEntries(file: string): Entries {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, "utf8"));
    if (typeof parsed !== "object" || parsed === null || !("entries" in parsed)) return {};
    const entries = parsed.entries;
    if (typeof entries !== "object" || entries === null) return {};
    return Object.fromEntries(Object.entries(entries).filter((e): e is [string, Entry] => isEntry(e[1])));
  } catch {
    return {};
  }
}

function isEntry(value: unknown): value is Entry {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  const flags =
    Array.isArray(v.missingFlags) &&
    v.missingFlags.every((f) => typeof f === "object" && f !== null && typeof f.flag === "string" && typeof f.since === "string");
  return (
    typeof v.key === "string" &&
    flags &&
    (v.version === undefined || typeof v.version === "string") &&
    (v.variant === undefined || typeof v.variant === "string")
  );
}

function writeEntries(file: string, entries: Entries): void {
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify({ entries }), { mode: 0o600 });
    renameSync(tmp, file);
  } catch {
    // A cache that cannot be written only means the next run probes again.
  }
}
