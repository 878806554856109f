/** A line diff (LCS) for showing exactly what a write would change. Configs are small. */

const MAX_LINES = 4000;

export function lineDiff(before: string, after: string, labels = { before: "current", after: "new" }): string {
  if (before === after) return "(no changes)\n";
  const a = splitLines(before);
  const b = splitLines(after);
  if (a.length > MAX_LINES || b.length > MAX_LINES)
    return `--- ${labels.before}\n+++ ${labels.after}\n${a.map((l) => `-${l}`).join("\n")}\n${b.map((l) => `+${l}`).join("\n")}\n`;
  const out = [`--- ${labels.before}`, `+++ ${labels.after}`, ...walk(a, b, lcsTable(a, b))];
  return `${out.join("\n")}\n`;
}

function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

function lcsTable(a: string[], b: string[]): number[][] {
  const t: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    const row = t[i] as number[];
    const next = t[i + 1] as number[];
    for (let j = b.length - 1; j >= 0; j--) row[j] = a[i] === b[j] ? (next[j + 1] as number) + 1 : Math.max(next[j] as number, row[j + 1] as number);
  }
  return t;
}

function walk(a: string[], b: string[], t: number[][]): string[] {
  const out: string[] = [];
  let i = 0;
  let j = 0;
  const at = (x: number, y: number) => (t[x] as number[])[y] as number;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      out.push(` ${a[i]}`);
      i++;
      j++;
    } else if (i < a.length && (j >= b.length || at(i + 1, j) >= at(i, j + 1))) {
      out.push(`-${a[i]}`);
      i++;
    } else {
      out.push(`+${b[j]}`);
      j++;
    }
  }
  return out;
}
