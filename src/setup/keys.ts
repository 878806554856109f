/**
 * Terminal bytes (raw mode) → keys, for the wizard's own line editor. Pure. Every line ending —
 * `\r` (Enter), `\n` (a pasted line), `\r\n` (a paste from some terminals) — is one Enter, so a
 * paste of several lines is several answers, in order, and none is lost.
 */

export type Key =
  | { kind: "char"; text: string }
  | { kind: "enter" }
  | { kind: "backspace" }
  | { kind: "up" }
  | { kind: "down" }
  | { kind: "left" }
  | { kind: "right" }
  /** Ctrl-C or Escape: the wizard is abandoned. */
  | { kind: "cancel" }
  /** Ctrl-D. */
  | { kind: "eof" };

const ARROWS: Record<string, Key> = { A: { kind: "up" }, B: { kind: "down" }, C: { kind: "right" }, D: { kind: "left" } };

export function decodeKeys(chunk: string): Key[] {
  const keys: Key[] = [];
  for (let i = 0; i < chunk.length; i++) {
    const ch = chunk[i] ?? "";
    if (ch === "\x1b") {
      const end = escapeEnd(chunk, i);
      if (end === i) keys.push({ kind: "cancel" });
      else {
        const arrow = ARROWS[chunk[end] ?? ""];
        if (arrow && end - i <= 2) keys.push(arrow);
      }
      i = end;
    } else if (ch === "\r") {
      keys.push({ kind: "enter" });
      if (chunk[i + 1] === "\n") i++;
    } else if (ch === "\n") keys.push({ kind: "enter" });
    else if (ch === "\x7f" || ch === "\b") keys.push({ kind: "backspace" });
    else if (ch === "\x03") keys.push({ kind: "cancel" });
    else if (ch === "\x04") keys.push({ kind: "eof" });
    else if (ch >= " ") keys.push({ kind: "char", text: ch });
    // Other control characters (Tab, Ctrl-letters) mean nothing here.
  }
  return keys;
}

/**
 * Index of the last character of the escape sequence starting at `i` (CSI `ESC [ … final` or SS3
 * `ESC O x`); `i` itself for a lone Escape. Bracketed-paste markers are CSI sequences and vanish.
 */
function escapeEnd(chunk: string, i: number): number {
  const next = chunk[i + 1];
  if (next === "O" && i + 2 < chunk.length) return i + 2;
  if (next !== "[") return i;
  let j = i + 2;
  while (j < chunk.length && !/[@-~]/.test(chunk[j] ?? "")) j++;
  return Math.min(j, chunk.length - 1);
}
