/** Config text → plain data. YAML via Bun's native parser; no schema library involved. */
import { duplicateKeys } from "./duplicates.ts";
import { errorLine } from "./format-errors.ts";
import { caretExcerpt, locateYamlError } from "./yaml-position.ts";
import type { Checked } from "./schema.ts";

export type FileFormat = "yaml" | "json";

/** By extension; an unknown extension is sniffed (JSON starts with `{`). */
export function formatOf(path: string, text: string): FileFormat {
  if (/\.json$/i.test(path)) return "json";
  if (/\.ya?ml$/i.test(path)) return "yaml";
  return text.trimStart().startsWith("{") ? "json" : "yaml";
}

export function parseConfigText(text: string, format: FileFormat, where: string): Checked<unknown> {
  const body = text.replace(/^\uFEFF/, "");
  try {
    const value = format === "json" ? JSON.parse(body) : Bun.YAML.parse(body);
    const duplicates = duplicateKeys(body);
    if (duplicates.length > 0) return { ok: false, errors: duplicates.map((d) => duplicateLine(where, d)) };
    // An empty YAML document is an empty config, not an error.
    return { ok: true, value: value ?? {} };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const at = format === "yaml" ? locateYamlError(body) : undefined;
    if (!at) return { ok: false, errors: [errorLine(where, `not valid ${format.toUpperCase()}: ${reason}`, "fix the syntax, then run orchestrate check")] };
    const opened = at.openedAt !== undefined ? "; a quote or bracket opened here is never closed" : "";
    const head = errorLine(
      `${where}:${at.line}:${at.column}`,
      `not valid YAML at line ${at.line}, column ${at.column}: ${reason.replace(/^YAML Parse error: /, "")}${opened}`,
      "fix the syntax there, then run orchestrate check",
    );
    return { ok: false, errors: [`${head}\n${caretExcerpt(body, at)}`] };
  }
}

/** Both parsers keep the last of equal keys; which one the person meant is theirs to say. */
function duplicateLine(where: string, d: { path: string; key: string; lines: number[] }): string {
  const at = d.path ? `${d.path}.${d.key}` : d.key;
  const lines = d.lines.join(", ");
  return errorLine(
    `${where}: ${at}`,
    `the key ${JSON.stringify(d.key)} appears ${d.lines.length} times in one mapping (lines ${lines}); only the last would count`,
    `keep one of lines ${lines} and delete the others`,
  );
}
