/**
 * Which pi release line is installed (docs/backends/pi.md, "Two release lines"). Two packages
 * ship a `pi`:
 *  - `@mariozechner/pi-coding-agent`, which ends at 0.73.1 and runs on Node 20;
 *  - its renamed successor `@earendil-works/pi-coding-agent` 1.x, which needs Node ≥ 22.19.
 * Their flags differ: `--no-approve` and `--no-mcp` exist only in 1.x and are a fatal
 * `Unknown option` on 0.73. `pi --version` tells them apart, but 0.73 prints it to **stderr** when
 * stdin is not a terminal (1.x to stdout), so both streams are read. Under Node 20, 1.x dies at
 * import with a SyntaxError about `enableCompileCache` before printing anything of its own.
 */
import type { ProbeOutput } from "../contract.ts";

/** The release lines, as RunRequest.variant carries them. */
export const PI_LINE_0 = "0.x";
export const PI_LINE_1 = "1.x";
/** A 1.x install whose Node is too old to start it. */
export const PI_LINE_1_OLD_NODE = "1.x-old-node";
/** `--version` printed no version: driven with the 0.x flags, which 1.x accepts too. */
export const PI_LINE_UNKNOWN = "unknown";

/** True when the run must use the 1.x flags; anything unread falls back to the flags both lines take. */
export function isLine1(variant: string | undefined): boolean {
  return variant === PI_LINE_1;
}

export function piLineOf(out: ProbeOutput): string {
  const text = `${out.stdout}\n${out.stderr}`;
  if (/enableCompileCache|does not provide an export named/.test(text)) return PI_LINE_1_OLD_NODE;
  const major = /(?:^|\s)v?(\d+)\.\d+\.\d+/.exec(text)?.[1];
  if (major === undefined) return PI_LINE_UNKNOWN;
  return Number(major) >= 1 ? PI_LINE_1 : PI_LINE_0;
}
