/**
 * The one way out. Everything orchestrate writes where a client or a person reads it leaves through
 * here, scrubbed by redact(): the MCP stream (replies, errors and notifications alike, in
 * src/mcp/stdio.ts), the log (src/log.ts) and the command line's stdout and stderr (src/cli/). The
 * dashboard scrubs in its one HTML template (src/dashboard/html.ts). No other module names
 * process.stdout, process.stderr or console — test/safety/egress.test.ts fails if one does — so a
 * new path cannot forget: it has no other way out.
 *
 * Scrubbing here does not replace the scrubbing of stored copies (src/store/content.ts): the store
 * is another egress, and what a tool returns is usually scrubbed once already; redact() is
 * idempotent, so the second pass changes nothing it has already masked.
 */
import { mapStrings, redact, redactBetweenEscapes } from "./redact.ts";

/**
 * Text compiled into the binary (tool descriptions, the generated JSON Schemas): written by us, not
 * by a caller or a delegate, so scrubbing it finds nothing — and tools/list, answered at every
 * client's start, would pay ~30-60 ms for it. Only the identical string skips the rules.
 */
const compiled = new Set<string>();

/** Declares the strings inside a value compiled-in text (see `compiled`). Never for anything read at run time. */
export function compiledIn(value: unknown): void {
  if (typeof value === "string") compiled.add(value);
  else if (Array.isArray(value)) for (const item of value) compiledIn(item);
  else if (typeof value === "object" && value !== null) for (const item of Object.values(value)) compiledIn(item);
}

/** Every string inside a JSON-like value, scrubbed; keys, numbers and the shape stay as they are. */
export function scrub<T>(value: T): T {
  return mapStrings(value, (text) => (compiled.has(text) ? text : redact(text))) as T;
}

/**
 * One JSON-RPC message as its stdout line. The strings are scrubbed before serializing: a rule run
 * over serialized JSON could swallow half of an escape (`\"`) and break the line.
 */
export function messageLine(message: object): string {
  return `${JSON.stringify(message, scrubString)}\n`;
}

/** JSON.stringify's replacer: the native walk is several times faster than scrub's on a cold start. */
function scrubString(_key: string, value: unknown): unknown {
  return typeof value === "string" && !compiled.has(value) ? redact(value) : value;
}

/** The MCP stream's writer: each message scrubbed and written as one line. */
export function messageWriter(output: NodeJS.WritableStream = process.stdout): (message: object) => void {
  return (message) => {
    output.write(messageLine(message));
  };
}

/** Resolves once what was written to stdout before has been handed to the OS (shutdown waits on it). */
export function stdoutDrained(): Promise<void> {
  return new Promise<void>((resolve) => process.stdout.write("", () => resolve()));
}

const decoder = new TextDecoder();

/**
 * The stream, with every chunk scrubbed before it is written; everything else (isTTY, columns, on…)
 * is the stream's own. A credential split across two writes is not seen whole: the writers here
 * write a line or a whole block at a time.
 */
function scrubbing(stream: NodeJS.WriteStream): NodeJS.WriteStream {
  const write = (chunk: unknown, ...rest: unknown[]): boolean => {
    const text = typeof chunk === "string" ? chunk : chunk instanceof Uint8Array ? decoder.decode(chunk) : String(chunk);
    return Reflect.apply(stream.write, stream, [redactBetweenEscapes(text), ...rest]) === true;
  };
  return new Proxy(stream, {
    get(target, prop) {
      if (prop === "write") return write;
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** The command line's output (never in serve mode: there stdout is the MCP stream). */
export const stdout: NodeJS.WriteStream = scrubbing(process.stdout);
/** Diagnostics, the log and progress traces. */
export const stderr: NodeJS.WriteStream = scrubbing(process.stderr);

/** The command line's `--json` output on stdout: scrubbed string by string, then serialized (see messageLine). */
export function printJson(value: unknown, indent?: number): void {
  process.stdout.write(`${JSON.stringify(value, scrubString, indent)}\n`);
}
