/**
 * A review's material: text the host supplies, or excerpts of files (inside the roots) that are
 * read here — at plan time, and again when the review runs, so a file edited after the plan was
 * approved is caught. Also what the plan shows about it: sizes, and where credential-shaped text is.
 */
import { findSecrets, findSecretsYielding, redactYielding, type SecretSpan } from "../../safety/redact.ts";
import { fail, ok, type Result } from "../../result.ts";
import { readExcerpt } from "./excerpt.ts";
import type { PromptMaterial } from "./envelope.ts";

/** As the caller gives it: text, or a file excerpt by absolute path and an optional line range. */
export type MaterialInput = { text: string; label?: string } | { path: string; start_line?: number; end_line?: number };

export interface MaterialItem extends PromptMaterial {
  path?: string;
  lastLine?: number;
}

export const MAX_MATERIAL_CHARS = 2_000_000;
export const MAX_MATERIAL_ITEMS = 100;

export function readMaterial(inputs: readonly MaterialInput[], roots: readonly string[]): Result<MaterialItem[]> {
  if (inputs.length === 0) return fail("material_invalid", "A review needs material: give at least one text or file excerpt.");
  if (inputs.length > MAX_MATERIAL_ITEMS) return fail("material_too_large", `${inputs.length} material items; at most ${MAX_MATERIAL_ITEMS}.`);
  const items: MaterialItem[] = [];
  for (const [i, input] of inputs.entries()) {
    const item = "path" in input ? excerpt(input, roots) : ok({ label: input.label ?? `text ${i + 1}`, text: input.text });
    if (!item.ok) return item;
    items.push(item.value);
  }
  const chars = items.reduce((n, m) => n + m.text.length, 0);
  if (chars > MAX_MATERIAL_CHARS) return fail("material_too_large", `The material is ${chars} characters; at most ${MAX_MATERIAL_CHARS}.`);
  return ok(items);
}

function excerpt(input: { path: string; start_line?: number; end_line?: number }, roots: readonly string[]): Result<MaterialItem> {
  const read = readExcerpt(input, roots, MAX_MATERIAL_CHARS);
  if (!read.ok) return read;
  const { text, range } = read.value;
  if (!range) return ok({ label: input.path, path: input.path, text });
  return ok({ label: `${input.path}:${range.first}-${range.last}`, path: input.path, text, firstLine: range.first, lastLine: range.last });
}

export interface MaterialSize {
  items: number;
  chars: number;
  lines: number;
  /** A rough count (characters / 4): what the reviewers are asked to read. */
  approx_tokens: number;
}

/** Lines as an editor counts them: a final newline ends the last line rather than starting one. */
export function lineCount(text: string): number {
  if (text === "") return 0;
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

export function sizeOf(items: readonly MaterialItem[], extra = ""): MaterialSize {
  const chars = items.reduce((n, m) => n + m.text.length, 0) + extra.length;
  const lines = items.reduce((n, m) => n + lineCount(m.text), 0);
  return { items: items.length, chars, lines, approx_tokens: Math.ceil(chars / 4) };
}

/** Where credential-shaped text is: which item, its line (the file's own numbering) and column, and the kind. */
export interface SecretLocation {
  where: string;
  line: number;
  column: number;
  kind: string;
}

export function locateSecrets(named: readonly NamedText[]): SecretLocation[] {
  return named.flatMap((m) => placed(m, findSecrets(m.text)));
}

/** locateSecrets() for a plan: the server answers other requests between the scrubber's passes. */
export async function locateSecretsYielding(named: readonly NamedText[]): Promise<SecretLocation[]> {
  const out: SecretLocation[] = [];
  for (const m of named) out.push(...placed(m, await findSecretsYielding(m.text)));
  return out;
}

type NamedText = { label: string; text: string; firstLine?: number };

function placed(m: NamedText, spans: readonly SecretSpan[]): SecretLocation[] {
  // The spans come in order: one walk forward over the newlines, not a count from the start per span.
  let line = m.firstLine ?? 1;
  let lineStart = 0;
  let nl = m.text.indexOf("\n");
  return spans.map((span) => {
    while (nl !== -1 && nl < span.start) {
      line += 1;
      lineStart = nl + 1;
      nl = m.text.indexOf("\n", lineStart);
    }
    return { where: m.label, line, column: span.start - lineStart + 1, kind: span.kind };
  });
}

/** What a masked review sends: every credential-shaped value replaced, as in every stored copy (the loop free meanwhile). */
export function masked(items: readonly MaterialItem[]): Promise<MaterialItem[]> {
  return Promise.all(items.map(async (m) => ({ ...m, text: await redactYielding(m.text) })));
}
