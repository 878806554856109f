/**
 * Which optional blocks the config file holds, read without validating it: tools/list advertises
 * a tool group only when its block exists (review, ask), and it is answered before arktype or the
 * SDK load. A file that is missing, unreadable or not YAML/JSON holds no blocks here; the server
 * reports what is wrong with it on the first call, through the hardened loader.
 */
import { closeSync, constants, fstatSync, openSync, readFileSync } from "node:fs";
import { resolveConfigPath, type Env } from "./paths.ts";

/** The parsed file as plain data, before any validation: only for presence checks. */
export type RawConfig = Record<string, unknown>;

/** Bounded: a presence check never reads more than a config could sensibly be. */
const MAX_BYTES = 1 << 20;

export function readRawConfig(env: Env): RawConfig | undefined {
  const location = resolveConfigPath(env);
  if (!location.exists) return undefined;
  try {
    const text = regularFileText(location.path);
    if (text === undefined) return undefined;
    const parsed: unknown = /\.json$/i.test(location.path) ? JSON.parse(text) : Bun.YAML.parse(text);
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as RawConfig) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The file's text only when it is a regular file of sensible size: tools/list must never block on
 * a FIFO, follow a symlink, or read a device planted at the config path (the loader refuses those
 * too, with the fix; here they simply hold no blocks).
 */
function regularFileText(path: string): string | undefined {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size > MAX_BYTES) return undefined;
    return readFileSync(fd, "utf8");
  } finally {
    closeSync(fd);
  }
}

/** `raw[a][b]…` when every step is an object; undefined otherwise. */
export function blockAt(raw: RawConfig | undefined, ...path: string[]): unknown {
  let at: unknown = raw;
  for (const key of path) {
    if (typeof at !== "object" || at === null || Array.isArray(at)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}
