/**
 * Where a YAML syntax error is. Bun's parser says only "Unexpected token" or "Unexpected EOF",
 * without a line, so the place is found by parsing growing prefixes of the text, line by line:
 * the first prefix that fails on a token (not on its end) ends on the offending line; a text that
 * fails only at its end has an unclosed construct (quote, bracket) opened on the first line after
 * the last prefix that parsed. Configs are small (the reader caps them), and this runs only once
 * the whole text has failed.
 */

export interface YamlPosition {
  line: number;
  column: number;
  /** Set when the line opens a construct (quote, bracket) that is never closed. */
  openedAt?: number;
}

/** Past this many lines only the line of an EOF error is estimated (each prefix is a parse). */
const MAX_SCAN_LINES = 2000;

export function locateYamlError(text: string): YamlPosition | undefined {
  const lines = text.split("\n");
  const limit = Math.min(lines.length, MAX_SCAN_LINES);
  let lastOk = 0;
  for (let k = 1; k <= limit; k++) {
    const outcome = tryParse(lines.slice(0, k).join("\n"));
    if (outcome === "ok") {
      lastOk = k;
      continue;
    }
    if (outcome === "eof") continue;
    // Lines that only parse as an unfinished prefix came first: the error is what they opened.
    if (lastOk + 1 < k) return opener(lines, lastOk + 1, outcome);
    const line = lines[k - 1] ?? "";
    const open = unclosedOpener(line);
    if (open !== undefined && !/tab/i.test(outcome)) return { line: k, column: open + 1, openedAt: k };
    return { line: k, column: columnOf(line, outcome) };
  }
  if (lastOk >= lines.length) return undefined;
  return opener(lines, lastOk + 1, "eof");
}

function opener(lines: string[], line: number, message: string): YamlPosition {
  return { line, column: columnOf(lines[line - 1] ?? "", message), openedAt: line };
}

type Outcome = "ok" | "eof" | string;

function tryParse(text: string): Outcome {
  try {
    Bun.YAML.parse(text);
    return "ok";
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return /EOF/i.test(message) ? "eof" : message;
  }
}

/**
 * 1-based: a tab where indentation is; else a bracket or quote the line opens and never closes
 * (the usual cause); else the first character that is not blank.
 */
function columnOf(line: string, message: string): number {
  if (/tab/i.test(message) && line.includes("\t")) return line.indexOf("\t") + 1;
  const opener = unclosedOpener(line);
  if (opener !== undefined) return opener + 1;
  const first = line.search(/\S/);
  return first < 0 ? 1 : first + 1;
}

/** Index of the last `[`, `{` or quote the line leaves open (a comment ends the scan). */
function unclosedOpener(line: string): number | undefined {
  const open: number[] = [];
  let quote: { ch: string; at: number } | undefined;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i] ?? "";
    if (quote) {
      if (ch === quote.ch) quote = undefined;
      continue;
    }
    if (ch === "#" && (i === 0 || /\s/.test(line[i - 1] ?? ""))) break;
    if ((ch === "'" || ch === '"') && (i === 0 || /[\s:[{,]/.test(line[i - 1] ?? ""))) quote = { ch, at: i };
    else if (ch === "[" || ch === "{") open.push(i);
    else if (ch === "]" || ch === "}") open.pop();
  }
  return quote?.at ?? open.at(-1);
}

/** `  4 |    bad: 1` and a caret under the column, for the message. */
export function caretExcerpt(text: string, pos: YamlPosition): string {
  const line = text.split("\n")[pos.line - 1] ?? "";
  const gutter = `${pos.line} | `;
  const shown = line.replace(/\t/g, "→");
  return `${gutter}${shown}\n${" ".repeat(gutter.length + pos.column - 1)}^`;
}
