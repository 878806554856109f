/**
 * Duplicate keys in a config file. YAML and JSON parsers keep the last of two equal keys in one
 * mapping and say nothing, so a second `sandbox: danger-full-access` pasted below a `read-only`
 * silently won. Bun's parser gives no positions, so the text is read a second time with the `yaml`
 * package's syntax tree — only to find repeated keys and their lines; the values stay Bun's
 * (config/parse.ts), so the two parsers never disagree about what a valid file means.
 */
import { isMap, isPair, isScalar, isSeq, LineCounter, parseAllDocuments, type Node } from "yaml";
import { joinPath } from "./format-errors.ts";

export interface DuplicateKey {
  /** Where the mapping sits, e.g. `agents.codex`; "" for the top level. */
  path: string;
  key: string;
  /** 1-based line of every occurrence, in file order. */
  lines: number[];
}

/** Every key that occurs more than once in one mapping. A text `yaml` cannot read yields none. */
export function duplicateKeys(text: string): DuplicateKey[] {
  const counter = new LineCounter();
  const docs = parseAllDocuments(text, { uniqueKeys: false, lineCounter: counter });
  if (!Array.isArray(docs)) return [];
  const found: DuplicateKey[] = [];
  for (const doc of docs) {
    if (doc.errors.length > 0) return [];
    walk(doc.contents, [], counter, found);
  }
  return found;
}

function walk(node: unknown, path: PropertyKey[], counter: LineCounter, found: DuplicateKey[]): void {
  if (isSeq(node)) {
    for (const [i, item] of node.items.entries()) walk(item, [...path, i], counter, found);
    return;
  }
  if (!isMap(node)) return;
  const lines = new Map<string, number[]>();
  for (const pair of node.items) {
    if (!isPair(pair)) continue;
    const key = keyText(pair.key);
    if (key === undefined) continue;
    const start = (pair.key as Node).range?.[0] ?? 0;
    lines.set(key, [...(lines.get(key) ?? []), counter.linePos(start).line]);
    walk(pair.value, [...path, key], counter, found);
  }
  for (const [key, at] of lines) if (at.length > 1) found.push({ path: joinPath(path), key, lines: at });
}

/** A scalar key as the parsed object names it (`1:` and `"1":` are the same key there). */
function keyText(key: unknown): string | undefined {
  if (!isScalar(key)) return undefined;
  return String(key.value);
}
