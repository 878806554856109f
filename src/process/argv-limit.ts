/**
 * Whether an argv fits what execve(2) accepts, checked before spawning. Linux caps one argument
 * (or one environment string) at MAX_ARG_STRLEN = 32 pages = 128 KiB including its NUL, and all of
 * them together, with their pointers, at a quarter of the stack limit (ARG_MAX, 2 MiB with the
 * usual 8 MiB stack). Past either, the spawn fails with E2BIG — which a caller would otherwise
 * read as "could not start", i.e. not installed. Sizes are UTF-8 bytes, not characters.
 */
export const MAX_ARG_STRLEN = 128 * 1024;
/** ARG_MAX with the default 8 MiB stack; a smaller `ulimit -s` lowers it, which is rare. */
export const ARG_MAX = 2 * 1024 * 1024;
const POINTER_BYTES = 8;

export type ArgvFit = { ok: true } | { ok: false; why: string; bytes: number; limit: number };

export function argvFits(argv: readonly string[], env: Record<string, string>): ArgvFit {
  let total = 0;
  for (const arg of argv) {
    const bytes = Buffer.byteLength(arg, "utf8") + 1;
    if (bytes > MAX_ARG_STRLEN) return { ok: false, why: "one argument is longer than the kernel takes (MAX_ARG_STRLEN)", bytes, limit: MAX_ARG_STRLEN };
    total += bytes + POINTER_BYTES;
  }
  for (const [key, value] of Object.entries(env)) total += Buffer.byteLength(key, "utf8") + Buffer.byteLength(value, "utf8") + 2 + POINTER_BYTES;
  if (total > ARG_MAX)
    return { ok: false, why: "the arguments and environment together are larger than the kernel takes (ARG_MAX)", bytes: total, limit: ARG_MAX };
  return { ok: true };
}
