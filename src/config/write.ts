/**
 * Writing a config (init, import, accept-pending): atomically, 0600, never into a directory
 * someone else can write — the same rules the loader enforces, so what we write loads.
 */
import { chmodSync, closeSync, constants, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { fail, ok, type Result } from "../result.ts";
import { parentProblems } from "./secure-read.ts";

export type WriteCode = "config_insecure" | "write_failed";

function tempPath(path: string): string {
  const rand = Math.random().toString(36).slice(2, 10);
  return resolve(dirname(path), `.${basename(path)}.${process.pid}.${rand}.tmp`);
}

function writeTemp(tmp: string, text: string): void {
  const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  // The umask can only remove bits; set the mode explicitly anyway so it is exactly 0600.
  chmodSync(tmp, 0o600);
}

/** Writes `text` to `path` via a 0600 temp file in the same directory and a rename. */
export function writeConfigAtomic(path: string, text: string): Result<string, WriteCode> {
  const target = resolve(path);
  try {
    mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
  } catch (error) {
    return fail("write_failed", `cannot create ${dirname(target)}: ${(error as Error).message}`, "create the directory yourself, mode 0700");
  }
  const problems = parentProblems(target);
  if (problems.length > 0) {
    return fail("config_insecure", problems.map((p) => p.problem).join("\n"), problems.map((p) => p.fix).join("; then "));
  }
  const tmp = tempPath(target);
  try {
    writeTemp(tmp, text);
    renameSync(tmp, target);
    return ok(target);
  } catch (error) {
    rmSync(tmp, { force: true });
    return fail("write_failed", `cannot write ${target}: ${(error as Error).message}`, "check the directory's permissions and free space");
  }
}

type Yaml = string | number | boolean | null | undefined | Yaml[] | { [key: string]: Yaml };

const PLAIN = /^[A-Za-z_./~][A-Za-z0-9_./~@+-]*$/;
const RESERVED = /^(true|false|yes|no|on|off|null|~|y|n)$/i;

function scalar(value: string | number | boolean | null): string {
  if (value === null) return "null";
  if (typeof value !== "string") return String(value);
  return PLAIN.test(value) && !RESERVED.test(value) ? value : JSON.stringify(value);
}

function key(k: string): string {
  return PLAIN.test(k) && !RESERVED.test(k) ? k : JSON.stringify(k);
}

function isScalar(value: Yaml): value is string | number | boolean | null {
  return value === null || typeof value !== "object";
}

function lines(value: Yaml, indent: string): string[] {
  if (Array.isArray(value)) {
    return value.flatMap((item) => {
      if (isScalar(item)) return [`${indent}- ${scalar(item)}`];
      const [first = "", ...rest] = lines(item, `${indent}  `);
      return [`${indent}- ${first.trimStart()}`, ...rest];
    });
  }
  if (isScalar(value)) return [`${indent}${scalar(value)}`];
  const out: string[] = [];
  for (const [k, v] of Object.entries(value as { [key: string]: Yaml })) {
    if (v === undefined) continue;
    if (isScalar(v)) out.push(`${indent}${key(k)}: ${scalar(v)}`);
    else if (Array.isArray(v) && v.length === 0) out.push(`${indent}${key(k)}: []`);
    else if (!Array.isArray(v) && Object.keys(v).length === 0) out.push(`${indent}${key(k)}: {}`);
    else out.push(`${indent}${key(k)}:`, ...lines(v, `${indent}  `));
  }
  return out;
}

/** A minimal YAML emitter for config objects (mappings, lists, scalars); round-trips through Bun.YAML. */
export function renderYaml(value: Record<string, unknown>): string {
  return `${lines(value as Yaml, "").join("\n")}\n`;
}
