/**
 * The wizard's prompts: consola's (clack) prompts, with `cancel: "symbol"` so Ctrl-C or Escape at
 * any prompt aborts the whole wizard instead of returning a default. Messages go to stderr; the
 * prompts themselves draw on stdout, which must be the terminal too.
 */
import tty from "node:tty";
import { Writable } from "node:stream";
import { createConsola, type ConsolaInstance } from "consola";

/** Thrown by a prompt the person cancelled; caught once, at the top of the command. */
export class Cancelled extends Error {
  constructor() {
    super("cancelled");
  }
}

export const ui: ConsolaInstance = createConsola({ stdout: process.stderr, stderr: process.stderr, formatOptions: { date: false } });

/** Refuses to run without a terminal on both ends: these steps are a human's attestation. */
export function terminalProblem(): string | undefined {
  if (process.stdin.isTTY && process.stdout.isTTY) return undefined;
  return "this command is interactive and needs a terminal (stdin and stdout must be a TTY); run it yourself in a terminal — there is no non-interactive mode";
}

let patched = false;

/**
 * clack's text prompt tracks what is typed by piping stdin into a `tty.WriteStream(0)` whose
 * `_write` it overrides. Bun's WriteStream writes straight to the fd and never calls `_write`, so
 * every text prompt would return its default (checked on Bun 1.4.5). Relaying stdin's pipe into
 * that `_write` restores the Node behaviour; nothing else pipes stdin in this process.
 */
export function installPromptFix(): void {
  if (patched) return;
  patched = true;
  type Pipe = (dest: NodeJS.WritableStream, opts?: { end?: boolean }) => NodeJS.WritableStream;
  const stdin = process.stdin as unknown as { pipe: Pipe };
  const original = stdin.pipe.bind(stdin);
  stdin.pipe = (dest: NodeJS.WritableStream, opts?: { end?: boolean }) => {
    if (!(dest instanceof tty.WriteStream)) return original(dest, opts);
    const target = dest as unknown as { _write: (chunk: unknown, enc: BufferEncoding, cb: (error?: Error | null) => void) => void };
    original(new Writable({ write: (chunk, enc, cb) => target._write(chunk, enc, cb) }), opts);
    return dest;
  };
}

function settle<T>(value: T | symbol): Exclude<T, symbol> {
  if (typeof value === "symbol") throw new Cancelled();
  return value as Exclude<T, symbol>;
}

export interface Choice<T extends string> {
  value: T;
  label: string;
  hint?: string;
}

export async function select<T extends string>(message: string, options: Choice<T>[], initial?: T): Promise<T> {
  const picked = await ui.prompt(message, { type: "select", options, ...(initial ? { initial } : {}), cancel: "symbol" });
  return settle(picked as unknown as T | symbol) as T;
}

export async function confirm(message: string, initial = false): Promise<boolean> {
  return settle(await ui.prompt(message, { type: "confirm", initial, cancel: "symbol" }));
}

export async function text(message: string, opts: { placeholder?: string; initial?: string } = {}): Promise<string> {
  const typed = await ui.prompt(message, { type: "text", ...(opts.placeholder ? { placeholder: opts.placeholder } : {}), ...(opts.initial ? { initial: opts.initial } : {}), cancel: "symbol" });
  // An empty answer comes back undefined, not "".
  return (settle(typed) ?? "").trim();
}
