/**
 * The wizard's prompts, on its own line editor (line-input.ts): every key from one queue, so
 * nothing typed or pasted is dropped; a text answer is validated and, when it is not valid, the
 * reason is shown and the question asked again; an empty answer is "" (never `undefined`).
 * Ctrl-C or Escape at any prompt aborts the whole wizard (Cancelled) instead of taking a default.
 * Everything is drawn on stderr; stdout stays free.
 */
import { createConsola, type ConsolaInstance } from "consola";
import { stderr, stdout } from "../safety/egress.ts";
import type { Key } from "./keys.ts";
import { terminalKeys } from "./line-input.ts";

/** Thrown by a prompt the person cancelled; caught once, at the top of the command. */
export class Cancelled extends Error {
  constructor() {
    super("cancelled");
  }
}

export const ui: ConsolaInstance = createConsola({ stdout: stderr, stderr, formatOptions: { date: false } });

/** Refuses to run without a terminal on both ends: these steps are a human's attestation. */
export function terminalProblem(): string | undefined {
  if (process.stdin.isTTY && stdout.isTTY) return undefined;
  return "this command is interactive and needs a terminal (stdin and stdout must be a TTY); run it yourself in a terminal — there is no non-interactive mode";
}

/**
 * Starts reading the terminal now (raw mode, keys queued), so what is typed before the first
 * question is kept and not echoed. A Ctrl-C while no question is open ends the command.
 */
export function startInput(onCancel: () => never): void {
  terminalKeys(onCancel);
}

const out = (text: string) => void stderr.write(text);
const CLEAR_LINE = "\r\x1b[2K";
/** Long lines are cut to the terminal's width (a wrapped line would break redrawing in place); a terminal of unknown width is not cut. */
export function clip(line: string): string {
  const columns = stderr.columns;
  if (!columns) return line;
  const width = Math.max(20, columns - 1);
  return line.length > width ? `${line.slice(0, width - 1)}…` : line;
}

async function key(): Promise<Key> {
  const next = await terminalKeys().next();
  if (next.kind === "cancel") throw new Cancelled();
  return next;
}

export interface Choice<T extends string> {
  value: T;
  label: string;
  hint?: string;
}

export interface TextOptions {
  placeholder?: string;
  initial?: string;
  /** A reason the answer is not acceptable (shown, then the question is asked again); undefined = accepted. */
  validate?: (answer: string) => string | undefined;
  /** How the accepted answer is echoed; default the answer itself, "(empty)" for none. */
  echo?: (answer: string) => string;
}

/** One line of text, trimmed. Enter on an empty line takes `initial` (or ""). */
export async function text(message: string, opts: TextOptions = {}): Promise<string> {
  for (;;) {
    const typed = (await readLine(message, opts)).trim();
    const answer = typed === "" ? (opts.initial ?? "") : typed;
    const problem = opts.validate?.(answer);
    if (problem === undefined) {
      out(`${CLEAR_LINE}${clip(`✔ ${message} · ${opts.echo?.(answer) ?? (answer === "" ? "(empty)" : answer)}`)}\n`);
      return answer;
    }
    out(`${CLEAR_LINE}${clip(`? ${message} › ${typed}`)}\n  ✗ ${problem}\n`);
  }
}

async function readLine(message: string, opts: TextOptions): Promise<string> {
  let buffer = "";
  let cursor = 0;
  const hint = opts.initial ? ` (Enter for ${opts.initial})` : opts.placeholder ? ` (e.g. ${opts.placeholder})` : "";
  const draw = () => {
    const head = `? ${message}${hint} › `;
    out(`${CLEAR_LINE}${head}${buffer}${cursor < buffer.length ? `\x1b[${buffer.length - cursor}D` : ""}`);
  };
  draw();
  for (;;) {
    const k = await key();
    if (k.kind === "enter") return buffer;
    if (k.kind === "eof" && buffer === "") throw new Cancelled();
    ({ buffer, cursor } = edit(buffer, cursor, k));
    draw();
  }
}

/** The editing keys of a one-line field. */
export function edit(buffer: string, cursor: number, k: Key): { buffer: string; cursor: number } {
  if (k.kind === "char") return { buffer: buffer.slice(0, cursor) + k.text + buffer.slice(cursor), cursor: cursor + k.text.length };
  if (k.kind === "backspace" && cursor > 0) return { buffer: buffer.slice(0, cursor - 1) + buffer.slice(cursor), cursor: cursor - 1 };
  if (k.kind === "left") return { buffer, cursor: Math.max(0, cursor - 1) };
  if (k.kind === "right") return { buffer, cursor: Math.min(buffer.length, cursor + 1) };
  return { buffer, cursor };
}

/**
 * Yes or no, ended by Enter like every other answer (y, yes, n, no; Enter alone takes the
 * default). A key that answered by itself would leave its Enter to be read as the next answer.
 */
export async function confirm(message: string, initial = false): Promise<boolean> {
  const yes = (a: string) => (a === "" ? initial : /^y/i.test(a));
  const answer = await text(`${message} ${initial ? "(Y/n)" : "(y/N)"}`, {
    validate: (a) => (a === "" || YES_NO.test(a) ? undefined : "answer y or n (Enter for the default)"),
    echo: (a) => (yes(a) ? "Yes" : "No"),
  });
  return yes(answer);
}

const YES_NO = /^(y|yes|n|no)$/i;

const WINDOW = 10;

/**
 * One of several: ↑/↓ and Enter, or type the choice's number or label and Enter (what a paste
 * does). A typed answer that names no choice is said and the list stays.
 */
export async function select<T extends string>(message: string, options: Choice<T>[], initial?: T): Promise<T> {
  let at = Math.max(
    0,
    options.findIndex((o) => o.value === initial),
  );
  let typed = "";
  let note = "";
  let drawn = 0;
  const draw = () => {
    const top = Math.min(Math.max(0, at - Math.floor(WINDOW / 2)), Math.max(0, options.length - WINDOW));
    const rows = options
      .slice(top, top + WINDOW)
      .map((o, i) => clip(`  ${top + i === at ? "●" : "○"} ${top + i + 1}. ${o.label}${o.hint ? `  (${o.hint})` : ""}`));
    if (options.length > WINDOW) rows.push(`  … ${options.length} choices, ↑/↓ to scroll`);
    const lines = [clip(`? ${message} › ${typed}`), ...rows, ...(note ? [`  ✗ ${note}`] : [])];
    out(`${drawn > 1 ? `\x1b[${drawn - 1}A` : ""}\r\x1b[J${lines.join("\n")}`);
    drawn = lines.length;
  };
  const finish = (choice: Choice<T>): T => {
    out(`${drawn > 1 ? `\x1b[${drawn - 1}A` : ""}\r\x1b[J${clip(`✔ ${message} · ${choice.label}`)}\n`);
    return choice.value;
  };
  draw();
  for (;;) {
    const k = await key();
    note = "";
    if (k.kind === "up" || k.kind === "down") {
      at = (at + (k.kind === "up" ? options.length - 1 : 1)) % options.length;
      typed = "";
    } else if (k.kind === "enter") {
      if (typed === "") return finish(options[at] as Choice<T>);
      const picked = pick(options, typed);
      if (picked) return finish(picked);
      note = `no choice is "${typed}": type its number (1–${options.length}) or use ↑/↓`;
      typed = "";
    } else {
      typed = edit(typed, typed.length, k).buffer;
    }
    draw();
  }
}

/** A typed number, or a label or value typed whole (case-insensitive). */
function pick<T extends string>(options: Choice<T>[], typed: string): Choice<T> | undefined {
  const t = typed.trim();
  if (/^\d+$/.test(t)) return options[Number(t) - 1];
  const lower = t.toLowerCase();
  return options.find((o) => o.label.toLowerCase() === lower || o.value.toLowerCase() === lower);
}
