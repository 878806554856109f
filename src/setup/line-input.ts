/**
 * The wizard's one reader of the terminal. stdin is put in raw mode once, at the start (so what
 * is typed during detection is neither echoed over the CLI lines nor lost), and every key goes
 * into one queue that the prompts take from in order: a paste of "gpt-5.5\n" is one answer, three
 * lines in one write are three answers, and an answer typed before its question still counts.
 * (consola's prompts each read stdin themselves; keys that arrived between two of them, or with
 * the Enter that ended the previous one, were dropped — issue 22.)
 */
import { decodeKeys, type Key } from "./keys.ts";

export interface KeyQueue {
  next(): Promise<Key>;
  /** Restores the terminal (cooked mode) and stops reading. */
  close(): void;
}

let shared: KeyQueue | undefined;

/**
 * The process's queue, started on first use. `onIdleCancel` runs when Ctrl-C arrives while no
 * prompt is waiting (raw mode turns Ctrl-C into a byte, not a SIGINT); by default the terminal is
 * restored and the process gets the SIGINT it would have had, so its own handlers (ending the
 * delegates' process groups) run.
 */
export function terminalKeys(onIdleCancel?: () => void): KeyQueue {
  shared ??= startQueue(
    onIdleCancel ??
      (() => {
        shared?.close();
        process.kill(process.pid, "SIGINT");
      }),
  );
  return shared;
}

function startQueue(onIdleCancel: () => void): KeyQueue {
  const keys: Key[] = [];
  const waiting: ((k: Key) => void)[] = [];
  const stdin = process.stdin;
  const onData = (data: Buffer | string) => {
    for (const key of decodeKeys(typeof data === "string" ? data : data.toString("utf8"))) {
      const waiter = waiting.shift();
      if (waiter) waiter(key);
      else if (key.kind === "cancel") onIdleCancel();
      else keys.push(key);
    }
  };
  const restore = () => {
    if (stdin.isTTY) stdin.setRawMode(false);
  };
  if (stdin.isTTY) stdin.setRawMode(true);
  stdin.on("data", onData);
  stdin.resume();
  process.once("exit", restore);
  return {
    next: () => {
      const ready = keys.shift();
      return ready ? Promise.resolve(ready) : new Promise((resolve) => waiting.push(resolve));
    },
    close: () => {
      stdin.off("data", onData);
      restore();
      stdin.pause();
      shared = undefined;
    },
  };
}
