/** The byte streams between the ACP SDK and an agent's stdio (see acp-session.ts). */
import type { StdinPipe } from "../../process/spawn.ts";

/**
 * The byte streams between the SDK and the child. Only lines that look like JSON reach the SDK:
 * gemini's `authenticate` writes a terminal login flow onto stdout, and its last JSON line comes
 * prefixed with an escape sequence, which is stripped. Everything else stays in the raw tail.
 */
export class Wire {
  private pipe: StdinPipe | undefined;
  private input: ReadableStreamDefaultController<Uint8Array> | undefined;
  private closed = false;
  private readonly encoder = new TextEncoder();
  readonly readable = new ReadableStream<Uint8Array>({ start: (c) => void (this.input = c) });
  readonly writable = new WritableStream<Uint8Array>({ write: (chunk) => this.pipe?.write(chunk) });

  attach(pipe: StdinPipe): void {
    this.pipe = pipe;
  }

  fromAgent(line: string): void {
    const json = line.replace(/^(?:\x1b\[[0-9;?]*[A-Za-z])+/, "").trim();
    if (this.closed || !json.startsWith("{")) return;
    this.input?.enqueue(this.encoder.encode(`${json}\n`));
  }

  endInput(): void {
    this.pipe?.end();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.input?.close();
    } catch {
      // Already closed by the SDK.
    }
  }
}
