/**
 * A raw JSON-RPC driver for the server: newline-delimited JSON written straight to its stdin (no
 * SDK client, so anything can be sent — garbage included) and every line it prints collected by id.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { BUN_DIR, REPO_ROOT } from "./sandbox.ts";

export type Id = string | number;
export interface Answer {
  id?: Id | null;
  result?: { isError?: boolean; structuredContent?: { error?: { code?: unknown } }; [key: string]: unknown };
  error?: { code?: unknown; message?: unknown };
  [key: string]: unknown;
}

export class RawServer {
  readonly proc: ReturnType<typeof Bun.spawn<"pipe", "pipe", "pipe">>;
  readonly answers = new Map<string, Answer[]>();
  /** Lines on stdout that were not JSON (must stay empty: stdout is the MCP stream only). */
  readonly junk: string[] = [];
  stderr = "";
  private readonly done: Promise<void>;

  constructor(env: Record<string, string>) {
    const proc = Bun.spawn([join(BUN_DIR, "bun"), join(REPO_ROOT, "src", "main.ts")], { env, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
    this.proc = proc;
    this.done = this.read();
    void (async () => {
      for await (const chunk of proc.stderr) this.stderr += new TextDecoder().decode(chunk);
    })();
  }

  private async read(): Promise<void> {
    const decoder = new TextDecoder();
    let buffered = "";
    for await (const chunk of this.proc.stdout) {
      buffered += decoder.decode(chunk, { stream: true });
      let nl = buffered.indexOf("\n");
      while (nl >= 0) {
        this.take(buffered.slice(0, nl));
        buffered = buffered.slice(nl + 1);
        nl = buffered.indexOf("\n");
      }
    }
  }

  private take(line: string): void {
    if (line.trim() === "") return;
    let msg: Answer;
    try {
      msg = JSON.parse(line) as Answer;
    } catch {
      this.junk.push(line.slice(0, 200));
      return;
    }
    if (msg.id === undefined) return; // a notification from the server
    const key = JSON.stringify(msg.id);
    this.answers.set(key, [...(this.answers.get(key) ?? []), msg]);
  }

  /** Writes one raw line (a string is sent as is; anything else is JSON-encoded). */
  send(message: unknown): void {
    this.proc.stdin.write(`${typeof message === "string" ? message : JSON.stringify(message)}\n`);
  }

  async flush(): Promise<void> {
    await this.proc.stdin.flush();
  }

  answersFor(id: Id): Answer[] {
    return this.answers.get(JSON.stringify(id)) ?? [];
  }

  async waitFor(ids: Id[], ms: number): Promise<Id[]> {
    const until = Date.now() + ms;
    for (;;) {
      const missing = ids.filter((id) => this.answersFor(id).length === 0);
      if (missing.length === 0 || Date.now() > until || this.proc.exitCode !== null) return missing;
      await Bun.sleep(20);
    }
  }

  rssKiB(): number | undefined {
    try {
      const status = readFileSync(`/proc/${this.proc.pid}/status`, "utf8");
      return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
    } catch {
      return undefined;
    }
  }

  async close(): Promise<void> {
    this.proc.stdin.end();
    await Promise.race([this.proc.exited, Bun.sleep(5000)]);
    if (this.proc.exitCode === null) this.proc.kill("SIGKILL");
    await this.done.catch(() => undefined);
  }
}
