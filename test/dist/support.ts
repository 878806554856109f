/** Shared plumbing for the distribution tests: builds, a raw MCP stdio exchange, a release server. */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export const ROOT = resolve(import.meta.dir, "../..");
export const VERSION: string = (await Bun.file(join(ROOT, "package.json")).json()).version;

export function tmp(prefix: string): Promise<string> {
  return mkdtemp(join(tmpdir(), `orchestrate-dist-${prefix}-`));
}

export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

export async function run(cmd: string[], opts: { cwd?: string; env?: Record<string, string | undefined> } = {}): Promise<Ran> {
  const proc = Bun.spawn(cmd, { cwd: opts.cwd ?? ROOT, env: opts.env ?? process.env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

/** Runs build/compile.ts the way `npm run build` does, into a private out dir. */
export async function compile(args: string[]): Promise<Ran> {
  return run([process.execPath, join(ROOT, "build/compile.ts"), ...args]);
}

export function hostName(): string {
  const os = process.platform === "win32" ? "windows" : process.platform;
  return `${os}-${process.arch}`;
}

type Json = Record<string, unknown>;

/** Reads newline-delimited JSON-RPC messages from a child's stdout. */
class LineReader {
  private buf = "";
  private readonly reader: { read(): Promise<{ done: boolean; value?: Uint8Array | undefined }> };
  private readonly decoder = new TextDecoder();
  constructor(stream: ReadableStream<Uint8Array>) {
    this.reader = stream.getReader();
  }
  async next(): Promise<string | null> {
    for (;;) {
      const nl = this.buf.indexOf("\n");
      if (nl >= 0) {
        const line = this.buf.slice(0, nl);
        this.buf = this.buf.slice(nl + 1);
        return line;
      }
      const { done, value } = await this.reader.read();
      if (done || !value) return null;
      this.buf += this.decoder.decode(value, { stream: true });
    }
  }
}

async function reply(lines: LineReader, id: number): Promise<Json> {
  for (;;) {
    const line = await lines.next();
    if (line === null) throw new Error(`server closed stdout before answering request ${id}`);
    const msg = JSON.parse(line) as Json;
    if (msg.id === id) return msg;
  }
}

export const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "dist-test", version: "1" } },
};

export interface Handshake {
  initialize: Json;
  toolsList: Json | null;
  exitCode: number;
  stderr: string;
}

/** A raw MCP client: initialize, initialized, optionally tools/list, then EOF; the server must exit. */
export async function mcpHandshake(bin: string, env: Record<string, string | undefined>, listTools = true): Promise<Handshake> {
  const proc = Bun.spawn([bin], { env, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
  const lines = new LineReader(proc.stdout);
  const send = (msg: Json) => {
    proc.stdin.write(`${JSON.stringify(msg)}\n`);
    proc.stdin.flush();
  };
  send(INITIALIZE);
  const initialize = await reply(lines, 1);
  send({ jsonrpc: "2.0", method: "notifications/initialized" });
  let toolsList: Json | null = null;
  if (listTools) {
    send({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} });
    toolsList = await reply(lines, 2);
  }
  proc.stdin.end();
  const [exitCode, stderr] = await Promise.all([proc.exited, new Response(proc.stderr).text()]);
  return { initialize, toolsList, exitCode, stderr };
}

/** An env for running a built binary: its own HOME so no real config is read or written. */
export function isolatedEnv(home: string, extra: Record<string, string> = {}): Record<string, string | undefined> {
  return {
    PATH: process.env.PATH,
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_DATA_HOME: join(home, ".local/share"),
    TMPDIR: process.env.TMPDIR,
    ...extra,
  };
}

/** url → sha256 as written in the formula, in order. */
export function formulaPairs(rb: string): Map<string, string> {
  const pairs = new Map<string, string>();
  for (const m of rb.matchAll(/url "([^"]+)"\s+sha256 "([0-9a-f]{64})"/g)) if (m[1] && m[2]) pairs.set(m[1], m[2]);
  return pairs;
}
