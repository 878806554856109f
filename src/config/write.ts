/**
 * Writing a config (init, import, accept-pending): atomically, 0600, never into a directory
 * someone else can write — the same rules the loader enforces, so what we write loads.
 */
import { chmodSync, closeSync, constants, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { fail, ok, type Result } from "../result.ts";
import { parentProblems } from "./secure-read.ts";

export type WriteCode = "config_insecure" | "config_invalid" | "write_failed";

/** Problems with the text as read back from the temp file; any refuses the write (the old file stays). */
export type WriteCheck = (written: string) => string[];

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

/**
 * Writes `text` to `path` via a 0600 temp file in the same directory and a rename. With `check`,
 * the temp file is read back first and the rename happens only if the check finds nothing: a
 * config is never replaced by one that loads differently from what was meant.
 */
export function writeConfigAtomic(path: string, text: string, check?: WriteCheck): Result<string, WriteCode> {
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
    const problems = check ? check(readFileSync(tmp, "utf8")) : [];
    if (problems.length > 0) {
      rmSync(tmp, { force: true });
      return fail("config_invalid", `${target} was not written:\n${problems.join("\n")}`, "nothing was changed; report this with the value you entered", {
        errors: problems,
      });
    }
    renameSync(tmp, target);
    return ok(target);
  } catch (error) {
    rmSync(tmp, { force: true });
    return fail("write_failed", `cannot write ${target}: ${(error as Error).message}`, "check the directory's permissions and free space");
  }
}

/**
 * YAML from Bun's own emitter, which quotes every string the parser would read as something else
 * (`.nan`, `.inf`, `1e3`, `0x1f`, `yes`, `~`): a hand-rolled one wrote a model named `.nan` bare,
 * the loader read a number back, and every tool then answered config_invalid.
 */
export function renderYaml(value: Record<string, unknown>): string {
  return `${Bun.YAML.stringify(value, null, 2)}\n`;
}

/**
 * A check for writeConfigAtomic: the text read back from disk parses (in YAML) to exactly `data`.
 * Anything else — a scalar read as another type, a key lost — is refused before the rename.
 */
export function readsBackAs(data: unknown): (written: string) => string[] {
  return (written) => {
    let back: unknown;
    try {
      back = Bun.YAML.parse(written);
    } catch (error) {
      return [`what would be written is not valid YAML: ${(error as Error).message}`];
    }
    return Bun.deepEquals(back, data) ? [] : ["what would be written does not read back as what was meant (a value would change type or be lost)"];
  };
}
