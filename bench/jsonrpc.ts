/**
 * A minimal newline-delimited JSON-RPC client over a child's stdio, with timestamps. The startup
 * benchmark cannot use the SDK client: its own loading and validation would sit inside the measured
 * interval. This writes the bytes a client writes and notes when each reply's line arrives.
 */
import type { Subprocess } from "bun";

export interface Reply {
  id: number;
  at: number;
  message: { result?: unknown; error?: unknown };
}

export interface RawSession {
  proc: Subprocess<"pipe", "pipe", "pipe">;
  startedAt: number;
  request(id: number, method: string, params?: unknown): Promise<Reply>;
  notify(method: string, params?: unknown): void;
  close(): Promise<void>;
}

export const INITIALIZE_PARAMS = { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "orchestrate-bench", version: "1.0.0" } };

export function spawnRaw(argv: string[], env: Record<string, string>, cwd: string): RawSession {
  const startedAt = performance.now();
  const proc = Bun.spawn(argv, { env, cwd, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
  const waiting = new Map<number, (reply: Reply) => void>();
  void readLines(proc.stdout, (line) => {
    const at = performance.now();
    const message = JSON.parse(line) as Reply["message"] & { id?: unknown };
    if (typeof message.id !== "number") return;
    waiting.get(message.id)?.({ id: message.id, at, message });
    waiting.delete(message.id);
  });
  // Drained so a chatty stderr can never block the child.
  void new Response(proc.stderr).text();
  const send = (msg: object): void => {
    proc.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...msg })}\n`);
    proc.stdin.flush();
  };
  return {
    proc,
    startedAt,
    request(id, method, params) {
      const reply = new Promise<Reply>((resolve, reject) => {
        waiting.set(id, resolve);
        void proc.exited.then((code) => reject(new Error(`${argv.join(" ")} exited ${code} before answering ${method}`)));
      });
      send({ id, method, ...(params === undefined ? {} : { params }) });
      return reply;
    },
    notify(method, params) {
      send({ method, ...(params === undefined ? {} : { params }) });
    },
    async close() {
      proc.stdin.end();
      const gone = await Promise.race([proc.exited.then(() => true), Bun.sleep(2000).then(() => false)]);
      if (!gone) proc.kill("SIGKILL");
      await proc.exited;
    },
  };
}

async function readLines(stream: ReadableStream<Uint8Array>, onLine: (line: string) => void): Promise<void> {
  const decoder = new TextDecoder();
  let buffered = "";
  for await (const chunk of stream) {
    buffered += decoder.decode(chunk, { stream: true });
    let nl = buffered.indexOf("\n");
    while (nl >= 0) {
      const line = buffered.slice(0, nl).trim();
      buffered = buffered.slice(nl + 1);
      if (line) onLine(line);
      nl = buffered.indexOf("\n");
    }
  }
}

/** spawn → initialize reply → (initialized) → tools/list reply, then RSS, then close. */
export interface StartupSample {
  initializeMs: number;
  toolsListMs: number;
  rssBytes: number;
  /** RssAnon: the process's own heap and stacks, without the mapped executable (page cache, shared). */
  anonBytes: number;
  tools: unknown[];
}

export async function measureStartup(
  argv: string[],
  env: Record<string, string>,
  cwd: string,
  rss: (pid: number, field?: "VmRSS" | "RssAnon") => number,
): Promise<StartupSample> {
  const s = spawnRaw(argv, env, cwd);
  try {
    const init = await s.request(1, "initialize", INITIALIZE_PARAMS);
    s.notify("notifications/initialized");
    const list = await s.request(2, "tools/list", {});
    const rssBytes = rss(s.proc.pid);
    const anonBytes = rss(s.proc.pid, "RssAnon");
    const tools = ((list.message.result as { tools?: unknown[] } | undefined)?.tools ?? []) as unknown[];
    return { initializeMs: init.at - s.startedAt, toolsListMs: list.at - s.startedAt, rssBytes, anonBytes, tools };
  } finally {
    await s.close();
  }
}
