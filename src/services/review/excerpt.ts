/**
 * A file excerpt for a review, read through the one descriptor that was checked against the roots
 * (safety/open-inside.ts), and never more of it than can be sent: a whole file is refused by its
 * size before a byte is read, and a line range is read as a stream up to its last line, so a huge
 * file costs only what was asked for.
 */
import { closeSync, readSync } from "node:fs";
import { openInsideRoots } from "../../safety/open-inside.ts";
import { fail, ok, type Result } from "../../result.ts";

export interface ExcerptInput {
  path: string;
  start_line?: number;
  end_line?: number;
}

export interface Excerpt {
  text: string;
  /** Set when a range was asked for: the lines actually read. */
  range?: { first: number; last: number };
}

const CHUNK = 64 * 1024;
const NEWLINE = 0x0a;

/** Bytes kept at most for `maxChars` characters: UTF-8 needs at most 3 bytes per UTF-16 unit. */
export function maxBytesFor(maxChars: number): number {
  return maxChars * 3;
}

export function readExcerpt(input: ExcerptInput, roots: readonly string[], maxChars: number): Result<Excerpt> {
  const opened = openInsideRoots(input.path, roots);
  if (!opened.ok) return fail("material_invalid", `Material file: ${opened.error.message}.`, opened.error.hint);
  const { fd, stats } = opened.value;
  try {
    const limit = maxBytesFor(maxChars);
    if (input.start_line === undefined && input.end_line === undefined) {
      // Refused on the size of what is open, before any of it is read.
      if (stats.size > limit) return tooLarge(input.path, `is ${stats.size} bytes`, limit);
      const whole = readUpTo(fd, limit);
      return whole === undefined ? tooLarge(input.path, "grew past the limit while it was read", limit) : ok({ text: decode(whole) });
    }
    return readRange(fd, input, limit);
  } catch (error) {
    return fail("material_invalid", `Cannot read ${input.path}: ${error instanceof Error ? error.message : String(error)}.`);
  } finally {
    closeSync(fd);
  }
}

function tooLarge(path: string, what: string, limit: number): Result<never> {
  return fail(
    "material_too_large",
    `${path} ${what}; a review reads at most ${limit} bytes of a file (and ${limit / 3} characters in all).`,
    "Pass start_line and end_line for the part that matters.",
  );
}

/** The whole file through the descriptor, or undefined when it holds more than `limit` bytes. */
function readUpTo(fd: number, limit: number): Uint8Array | undefined {
  const parts: Buffer[] = [];
  let size = 0;
  const buf = Buffer.allocUnsafe(CHUNK);
  for (;;) {
    const n = readSync(fd, buf, 0, CHUNK, null);
    if (n === 0) return Buffer.concat(parts, size);
    size += n;
    if (size > limit) return undefined;
    parts.push(Buffer.from(buf.subarray(0, n)));
  }
}

/**
 * Lines `first`..`last` as `text.split("\n").slice(first - 1, last).join("\n")` would give them
 * (a final newline starts one more, empty, line), read chunk by chunk and stopped after the last
 * one. Only past the end, to say how many lines there are, is the rest counted (nothing kept).
 */
function readRange(fd: number, input: ExcerptInput, limit: number): Result<Excerpt> {
  const first = input.start_line ?? 1;
  const end = input.end_line ?? Number.POSITIVE_INFINITY;
  const kept: Buffer[] = [];
  let keptBytes = 0;
  let line = 1;
  let stoppedAtEnd = false;
  const buf = Buffer.allocUnsafe(CHUNK);
  outer: for (;;) {
    const n = end < first ? 0 : readSync(fd, buf, 0, CHUNK, null);
    if (n === 0) break;
    let pos = 0;
    while (pos < n) {
      const found = buf.indexOf(NEWLINE, pos);
      const stop = found === -1 || found >= n ? n : found + 1;
      if (line >= first && line <= end) {
        keptBytes += stop - pos;
        if (keptBytes > limit + 1) return tooLarge(input.path, `lines ${first}–${input.end_line ?? "end"} are more than ${limit} bytes`, limit);
        kept.push(Buffer.from(buf.subarray(pos, stop)));
      }
      pos = stop;
      if (stop === n && (found === -1 || found >= n)) break;
      line++;
      if (line > end) {
        stoppedAtEnd = true;
        break outer;
      }
    }
  }
  if (stoppedAtEnd) {
    // The newline that ended the last line asked for is not part of the excerpt.
    const text = decode(Buffer.concat(kept, keptBytes)).replace(/\n$/, "");
    return ok({ text, range: { first, last: end } });
  }
  // End of file: `line` is the number of lines (as split("\n") counts them).
  const total = end < first ? countLines(fd) : line;
  const last = Math.min(end, total);
  if (first > total || last < first)
    return fail("material_invalid", `${input.path} has ${total} lines; lines ${first}–${input.end_line ?? "end"} do not exist.`);
  return ok({ text: decode(Buffer.concat(kept, keptBytes)), range: { first, last } });
}

function countLines(fd: number): number {
  let lines = 1;
  const buf = Buffer.allocUnsafe(CHUNK);
  for (;;) {
    const n = readSync(fd, buf, 0, CHUNK, null);
    if (n === 0) return lines;
    for (let at = buf.indexOf(NEWLINE, 0); at !== -1 && at < n; at = buf.indexOf(NEWLINE, at + 1)) lines++;
  }
}

function decode(bytes: Uint8Array): string {
  // A byte-order mark is kept, as readFileSync(…, "utf8") kept it.
  return new TextDecoder("utf-8", { fatal: false, ignoreBOM: true }).decode(bytes);
}
