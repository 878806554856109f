/**
 * Reads a file only if nobody but its owner could have written it (docs/config-discovery.md): no symlink
 * (O_NOFOLLOW), a regular file (fstat of the opened fd, so no swap between check and read),
 * mode 0600, owned by the user, in a directory nobody else can write. Each refusal names the fix.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, realpathSync } from "node:fs";
import { dirname } from "node:path";
import { fail, ok, type Result } from "../result.ts";

export type SecureReadCode = "config_absent" | "config_insecure" | "config_invalid";

const MAX_BYTES = 1024 * 1024;

/** Paths are pasted into shell commands in fix hints: quote anything unusual. */
export function shellQuote(path: string): string {
  return /^[A-Za-z0-9_/.,:@%+=-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}

function octal(mode: number): string {
  return `0${(mode & 0o7777).toString(8).padStart(3, "0")}`;
}

export interface Problem {
  problem: string;
  fix: string;
}

function insecure(problems: Problem[]): ReturnType<typeof fail<"config_insecure">> {
  const message = problems.map((p) => p.problem).join("\n");
  const hint = problems.map((p) => p.fix).join("; then ");
  return fail("config_insecure", message, hint, { fixes: problems.map((p) => p.fix) });
}

/** The directory holding the file must not let anyone else replace it. */
export function parentProblems(path: string): Problem[] {
  let dir: string;
  try {
    dir = realpathSync(dirname(path));
  } catch {
    return [];
  }
  const st = lstatSync(dir);
  const problems: Problem[] = [];
  if ((st.mode & 0o022) !== 0) {
    problems.push({
      problem: `${dir} is group- or world-writable (mode ${octal(st.mode)}): someone else could replace the config in it`,
      fix: `chmod go-w ${shellQuote(dir)}`,
    });
  }
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid && st.uid !== 0) {
    problems.push({ problem: `${dir} is owned by uid ${st.uid}, not by you (uid ${uid}) or root`, fix: `chown $USER ${shellQuote(dir)}` });
  }
  return problems;
}

function fileProblems(path: string, fd: number): Problem[] {
  const st = fstatSync(fd);
  const q = shellQuote(path);
  if (!st.isFile()) return [{ problem: `${path} is not a regular file`, fix: `replace ${q} with a regular file` }];
  const problems: Problem[] = [];
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid) problems.push({ problem: `${path} is owned by uid ${st.uid}, not by you (uid ${uid})`, fix: `chown $USER ${q}` });
  if ((st.mode & 0o7777) !== 0o600)
    problems.push({ problem: `${path} has mode ${octal(st.mode)}; it must be 0600 (read/write for you only)`, fix: `chmod 600 ${q}` });
  if (st.size > MAX_BYTES)
    problems.push({ problem: `${path} is ${st.size} bytes; a config is at most ${MAX_BYTES}`, fix: `check that ${q} is really your config` });
  return problems;
}

function openRefusal(path: string, error: unknown): Result<never, SecureReadCode> {
  const code = (error as NodeJS.ErrnoException).code;
  const q = shellQuote(path);
  if (code === "ENOENT") return fail("config_absent", `no config file at ${path}`, `create it with orchestrate init ${q}`);
  if (code === "ELOOP" || code === "EMLINK") {
    return insecure([
      {
        problem: `${path} is a symlink; orchestrate reads only a regular file there`,
        fix: `replace the symlink with the file itself (cp the target over it, then chmod 600 ${q})`,
      },
    ]);
  }
  if (code === "EACCES" || code === "EPERM") return insecure([{ problem: `${path} cannot be read by you`, fix: `chown $USER ${q} && chmod 600 ${q}` }]);
  return fail("config_invalid", `${path} cannot be opened: ${(error as Error).message}`, "check the path");
}

/**
 * Reads at most MAX_BYTES, whatever fstat said: a kernel file such as /proc/self/mem is "regular",
 * 0600, yours and of size 0, yet reading it fails (EIO) or never ends. A read error is a refusal,
 * not a crash of `check` or the server.
 */
function readCapped(path: string, fd: number): Result<string, SecureReadCode> {
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for (;;) {
      const chunk = Buffer.alloc(64 * 1024);
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      total += n;
      if (total > MAX_BYTES)
        return insecure([
          { problem: `${path} holds more than ${MAX_BYTES} bytes; a config is at most that`, fix: `check that ${shellQuote(path)} is really your config` },
        ]);
      chunks.push(chunk.subarray(0, n));
    }
  } catch (error) {
    return fail(
      "config_invalid",
      `${path} cannot be read: ${(error as Error).message}`,
      `point at your config file (a regular file you wrote), then run orchestrate check`,
    );
  }
  return ok(Buffer.concat(chunks).toString("utf8"));
}

/** The whole hardened read. `check`, `accept-pending` and the server all go through this. */
export function readSecureFile(path: string): Result<string, SecureReadCode> {
  let fd: number;
  try {
    // O_NONBLOCK: a FIFO planted at the path must not hang the server; fstat refuses it next.
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    return openRefusal(path, error);
  }
  try {
    const problems = [...fileProblems(path, fd), ...parentProblems(path)];
    if (problems.length > 0) return insecure(problems);
    return readCapped(path, fd);
  } finally {
    closeSync(fd);
  }
}
