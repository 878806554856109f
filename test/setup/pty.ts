/**
 * Drives a command through a real pseudo-terminal (Bun.spawn's `terminal` option opens a PTY pair:
 * the child's stdin/stdout/stderr are the slave side, so isTTY is true and raw mode works). Waits
 * on output, never on sleeps: each step waits until the screen shows what it expects.
 */
import { BUN, MAIN } from "./helpers.ts";

export interface PtySession {
  /** Everything the terminal showed so far, ANSI codes stripped. */
  screen(): string;
  /** Resolves once `text` appears after the read mark; then moves the mark past it. */
  expect(text: string | RegExp, timeoutMs?: number): Promise<void>;
  /** Writes raw bytes (keys). */
  send(keys: string): void;
  /** Types text, waits until the prompt echoes it, then presses Enter. */
  type(text: string): Promise<void>;
  exited: Promise<number>;
  kill(): void;
}

export const KEY = { enter: "\r", down: "\x1b[B", up: "\x1b[A", ctrlC: "\x03", esc: "\x1b" } as const;

const ANSI = /\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\r/g;

export function spawnPty(args: string[], env: Record<string, string>): PtySession {
  let raw = "";
  let mark = 0;
  const waiters = new Set<() => void>();
  const proc = Bun.spawn([BUN, MAIN, ...args], {
    env: { ...env, TERM: "xterm-256color" },
    terminal: {
      cols: 160,
      rows: 50,
      data(_t, chunk) {
        raw += new TextDecoder().decode(chunk);
        for (const wake of waiters) wake();
      },
    },
  });
  const screen = () => raw.replace(ANSI, "");
  const expect = (text: string | RegExp, timeoutMs = 20_000) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        const rest = screen().slice(mark);
        const at = typeof text === "string" ? rest.indexOf(text) : rest.search(text);
        if (at < 0) return false;
        mark += at + (typeof text === "string" ? text.length : (rest.match(text)?.[0].length ?? 0));
        return true;
      };
      if (check()) return resolve();
      const timer = setTimeout(() => {
        waiters.delete(wake);
        reject(new Error(`timed out waiting for ${String(text)}; screen:\n${screen().slice(-3000)}`));
      }, timeoutMs);
      const wake = () => {
        if (!check()) return;
        clearTimeout(timer);
        waiters.delete(wake);
        resolve();
      };
      waiters.add(wake);
      proc.exited.then(() => setTimeout(wake, 50));
    });
  const send = (keys: string) => void proc.terminal?.write(keys);
  return {
    screen,
    expect,
    send,
    async type(text: string) {
      send(text);
      await expect(text);
      send(KEY.enter);
    },
    exited: proc.exited,
    kill: () => proc.kill("SIGKILL"),
  };
}
