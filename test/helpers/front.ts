/**
 * The whole server in this process: mcp/front.ts over mcp/stdio.ts's line reader, fed raw lines
 * and read back by id — the same code path as the binary's stdin/stdout, without a subprocess per
 * test. Tool calls build the runtime from process.env (services/shared/runtime.ts), so the world's
 * env is put there for the file's lifetime and restored on close.
 */
import { PassThrough, Writable } from "node:stream";
import { makeSandbox, type Sandbox } from "../../fakes/lib/sandbox.ts";
import { serveFront } from "../../src/mcp/front.ts";
import { stdioWire } from "../../src/mcp/stdio.ts";

export type Id = string | number;
export interface Reply {
  id?: Id | null;
  result?: Record<string, unknown> & { isError?: boolean; structuredContent?: { error?: { code?: string } } };
  error?: { code: number; message: string };
}

export interface Front {
  box: Sandbox;
  /** Writes one line (a string as is, anything else JSON-encoded). */
  write(message: unknown): void;
  /** The first reply to `id`, waited for on the wire's own events. */
  reply(id: Id | null, ms?: number): Promise<Reply>;
  /** Every reply (not notifications) received so far, in order. */
  replies: Reply[];
  notifications: Record<string, unknown>[];
  close(): Promise<void>;
}

export const INIT = (id: Id, capabilities: Record<string, unknown> = {}) => ({
  jsonrpc: "2.0",
  id,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities, clientInfo: { name: "front-test", version: "1" } },
});

export function openFront(config?: string, extraEnv: Record<string, string> = {}): Front {
  const box = makeSandbox({ ORCHESTRATE_LOG_LEVEL: "0", ...extraEnv });
  if (config !== undefined) box.writeConfig(config);
  const saved = { ...process.env };
  Object.assign(process.env, box.env);
  const input = new PassThrough();
  const replies: Reply[] = [];
  const notifications: Record<string, unknown>[] = [];
  const waiters = new Set<() => void>();
  let buffered = "";
  const output = new Writable({
    write(chunk: Buffer, _enc, done) {
      buffered += chunk.toString("utf8");
      for (let nl = buffered.indexOf("\n"); nl >= 0; nl = buffered.indexOf("\n")) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        const msg = JSON.parse(line) as Reply & { method?: string };
        if ("id" in msg && !("method" in msg)) replies.push(msg);
        else notifications.push(msg as Record<string, unknown>);
      }
      for (const wake of waiters) wake();
      done();
    },
  });
  const served = serveFront({ env: box.env, wire: stdioWire(input, output) });
  const find = (id: Id | null) => replies.find((r) => r.id === id);
  return {
    box,
    replies,
    notifications,
    write: (message) => input.write(`${typeof message === "string" ? message : JSON.stringify(message)}\n`),
    reply: (id, ms = 15_000) =>
      new Promise<Reply>((resolve, reject) => {
        const check = () => {
          const found = find(id);
          if (!found) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no reply for id ${JSON.stringify(id)} within ${ms} ms`));
        }, ms);
        waiters.add(check);
        check();
      }),
    close: async () => {
      input.end();
      await served;
      for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
      Object.assign(process.env, saved);
      box.cleanup();
    },
  };
}
