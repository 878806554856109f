/**
 * Builds a backend's HomeOverlay (contract.ts) for one run: a private 0700 copy of the CLI's
 * home made of links to the person's own files, with only the named settings files replaced by
 * the backend's adjusted copy, and removes it afterwards. The person's files are never written;
 * the `keep` directories are created in their home first, so what the CLI stores there during the
 * run (gemini's sessions) outlives the copy. Anything unreadable means no copy: the CLI then runs
 * with the person's settings as they are, which is what it would have done without orchestrate.
 */
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import type { HomeOverlay } from "../backends/contract.ts";
import { asObject, type Json } from "../backends/events.ts";
import { log } from "../log.ts";

export interface BuiltOverlay {
  /** The private home: the value `envVar` gets for this run. */
  dir: string;
  remove(): void;
}

export function buildHomeOverlay(spec: HomeOverlay, tempRoot = tmpdir()): BuiltOverlay | undefined {
  const files = adjustedSettings(spec);
  if (!files) return undefined;
  const dir = mkdtempSync(join(tempRoot, "orchestrate-overlay-"));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    for (const keep of spec.keep) mkdirSync(join(spec.root, keep), { recursive: true, mode: 0o700 });
    const replaced = Object.keys(files);
    for (const entry of spec.entries) mirror(spec.root, dir, entry, replaced);
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, file)), { recursive: true, mode: 0o700 });
      writeFileSync(join(dir, file), text, { mode: 0o600 });
    }
    return { dir, remove };
  } catch (error) {
    log.debug(`home overlay not built: ${String(error)}`);
    remove();
    return undefined;
  }
}

/** Each settings file as its new text, or undefined when one of them cannot be read as JSON. */
function adjustedSettings(spec: HomeOverlay): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const [file, adjust] of Object.entries(spec.settings)) {
    const current = readSettings(join(spec.root, file));
    if (!current) return undefined;
    out[file] = `${JSON.stringify(adjust(current), null, 2)}\n`;
  }
  return out;
}

function readSettings(path: string): Json | undefined {
  if (!existsSync(path)) return {};
  try {
    return asObject(JSON.parse(withoutComments(readFileSync(path, "utf8"))));
  } catch {
    return undefined;
  }
}

/** `//` and block comments outside strings, as JSONC readers (gemini's strip-json-comments) drop them. */
export function withoutComments(text: string): string {
  return text.replace(/("(?:\\.|[^"\\])*")|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (_match, quoted: string | undefined) => quoted ?? "");
}

/**
 * Carries `entry` (relative to root) into the copy: a link to the original, or — when a replaced
 * file lies inside it — a real directory whose every child is carried the same way.
 */
function mirror(root: string, copy: string, entry: string, replaced: string[]): void {
  const source = join(root, entry);
  if (replaced.includes(entry)) return;
  const holdsReplaced = replaced.some((file) => !relative(entry, file).startsWith(".."));
  if (!holdsReplaced) {
    if (lstatSync(source, { throwIfNoEntry: false })) symlinkSync(source, join(copy, entry));
    return;
  }
  mkdirSync(join(copy, entry), { recursive: true, mode: 0o700 });
  if (!existsSync(source)) return;
  for (const child of readdirSync(source)) mirror(root, copy, join(entry, child), replaced);
}
