/**
 * A CLI's version read from its npm package instead of by starting it (the wizard's listing; the
 * backend names the package where its `--version` prints that file's version). Only a
 * package.json up to three directories above the binary's real file, with that exact name and a
 * dotted version, counts: anything else is undefined and the CLI is asked.
 */
import { readFileSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";

export function packageVersion(binary: string, pkgName: string | undefined): string | undefined {
  if (!pkgName) return undefined;
  try {
    for (const file of packageJsonsAbove(realpathSync(binary))) {
      const found = versionIn(file, pkgName);
      if (found) return found;
    }
  } catch {
    // An unreadable binary: the CLI is asked.
  }
  return undefined;
}

/** Where an npm install keeps the package.json of a binary's real file: up to three directories above it, nearest first. */
export function packageJsonsAbove(realBinary: string): string[] {
  const files: string[] = [];
  let dir = dirname(realBinary);
  for (let i = 0; i < 3; i++) {
    files.push(join(dir, "package.json"));
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return files;
}

function versionIn(file: string, pkgName: string): string | undefined {
  try {
    const pkg: unknown = JSON.parse(readFileSync(file, "utf8"));
    if (typeof pkg !== "object" || pkg === null || !("name" in pkg) || !("version" in pkg)) return undefined;
    return pkg.name === pkgName && typeof pkg.version === "string" && /^\d+\.\d+/.test(pkg.version) ? pkg.version : undefined;
  } catch {
    return undefined;
  }
}
