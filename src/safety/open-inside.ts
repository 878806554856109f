/**
 * Opening a file inside the roots so that what was checked is what gets read. Checking a path and
 * then reading it again by name loses to a swap in between (a symlink put where the file or one of
 * its directories was): the read follows it out of the roots. So the file is opened once, and the
 * check is made on the open descriptor — its real path (Linux: /proc/self/fd; elsewhere the path
 * resolved again and proved to be the same inode) must be inside a root — and every later read goes
 * through that descriptor.
 */
import { closeSync, constants, fstatSync, openSync, readlinkSync, realpathSync, statSync, type Stats } from "node:fs";
import { isAbsolute } from "node:path";
import { fail, ok, type Result } from "../result.ts";
import { ADD_ROOT, inside, realRoots } from "./roots.ts";

export interface OpenedFile {
  fd: number;
  /** The real path of what is open. */
  real: string;
  stats: Stats;
}

type OpenError = "cwd_outside_roots" | "cwd_invalid";

/** Opens `path` read-only when it is a regular file inside one of `roots`; the caller closes `fd`. */
export function openInsideRoots(path: string, roots: readonly string[]): Result<OpenedFile, OpenError> {
  if (path === "" || path.includes("\0") || !isAbsolute(path))
    return fail("cwd_invalid", `${JSON.stringify(path)} is not an absolute path`, "pass the file's absolute path");
  if (path.split("/").includes("..")) return fail("cwd_invalid", `${path} contains a .. segment`, "pass the file's absolute path without .. segments");
  let fd: number;
  try {
    // The resolved path, not following a last component that became a symlink since; non-blocking
    // so a FIFO put there cannot hang the open.
    fd = openSync(realpathSync(path), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ELOOP")
      return fail("cwd_invalid", `${path} changed into a symlink while it was opened`, "pass the file's real path, and do not change it during the review");
    return fail("cwd_invalid", code === "ENOENT" ? `${path} does not exist` : `cannot open ${path} (${code ?? "error"})`, "pass an existing, readable file");
  }
  const checked = checkDescriptor(fd, path, roots);
  if (!checked.ok) closeSync(fd);
  return checked;
}

function checkDescriptor(fd: number, path: string, roots: readonly string[]): Result<OpenedFile, OpenError> {
  const stats = fstatSync(fd);
  if (!stats.isFile()) return fail("cwd_invalid", `${path} is not a regular file`, "pass a file, not a directory");
  const real = descriptorPath(fd, path, stats);
  if (real === undefined)
    return fail("cwd_invalid", `${path} changed while it was opened`, "pass the file's real path, and do not change it during the review");
  const allowed = realRoots(roots);
  if (allowed.some((root) => inside(real, root))) return ok({ fd, real, stats });
  return fail(
    "cwd_outside_roots",
    `${path}${real === path ? "" : ` (it resolves to ${real})`} is outside the allowed roots (${allowed.join(", ") || "none"})`,
    ADD_ROOT(real),
  );
}

/** Where the open file really is, or undefined when that cannot be proved. */
function descriptorPath(fd: number, path: string, stats: Stats): string | undefined {
  if (process.platform === "linux") {
    try {
      const real = readlinkSync(`/proc/self/fd/${fd}`);
      // An unlinked file reads "… (deleted)"; anything not absolute is not a file on disk.
      return isAbsolute(real) && !real.endsWith(" (deleted)") ? real : undefined;
    } catch {
      // No /proc (a container without it): prove it the portable way.
    }
  }
  try {
    const real = realpathSync(path);
    const now = statSync(real);
    return now.dev === stats.dev && now.ino === stats.ino ? real : undefined;
  } catch {
    return undefined;
  }
}
