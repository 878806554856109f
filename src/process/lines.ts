/**
 * Splits a byte stream into lines. Splitting happens on bytes, before decoding: 0x0A never occurs
 * inside a multi-byte UTF-8 sequence, so a character cut across two chunks is reassembled whole.
 * A line longer than `maxLineBytes` keeps its first `maxLineBytes` bytes and the rest is dropped as
 * it arrives, so one runaway line can never be buffered unbounded.
 */

const NEWLINE = 0x0a;
const CR = 0x0d;

export const DEFAULT_MAX_LINE_BYTES = 4 * 1024 * 1024;

export class LineSplitter {
  private parts: Uint8Array[] = [];
  private pending = 0;
  private readonly decoder = new TextDecoder("utf-8", { fatal: false });
  /** The current line lost bytes past maxLineBytes. */
  private overflowed = false;
  /** Lines emitted so far, truncated ones included. */
  count = 0;
  /** Lines that were cut at maxLineBytes. */
  truncated = 0;

  constructor(
    private readonly onLine: (line: string) => void,
    private readonly maxLineBytes = DEFAULT_MAX_LINE_BYTES,
  ) {}

  push(chunk: Uint8Array): void {
    let from = 0;
    for (let nl = chunk.indexOf(NEWLINE, from); nl !== -1; nl = chunk.indexOf(NEWLINE, from)) {
      // A line wholly inside this chunk is decoded straight from it: no copy, no garbage.
      if (this.parts.length === 0 && !this.overflowed)
        this.emitDirect(chunk.subarray(from, Math.min(nl, from + this.maxLineBytes)), nl - from > this.maxLineBytes);
      else {
        this.append(chunk.subarray(from, nl));
        this.emit();
      }
      from = nl + 1;
    }
    if (from < chunk.length) this.append(chunk.subarray(from));
  }

  private emitDirect(bytes: Uint8Array, cut: boolean): void {
    if (cut) this.truncated++;
    this.count++;
    const end = bytes.length > 0 && bytes[bytes.length - 1] === CR ? bytes.length - 1 : bytes.length;
    this.onLine(this.decoder.decode(bytes.subarray(0, end)));
  }

  /** Emits a last line that had no newline. */
  flush(): void {
    if (this.pending > 0 || this.parts.length > 0) this.emit();
  }

  private append(bytes: Uint8Array): void {
    const room = this.maxLineBytes - this.pending;
    if (room <= 0 || bytes.length === 0) {
      if (bytes.length > 0) this.overflowed = true;
      return;
    }
    const kept = bytes.length > room ? bytes.subarray(0, room) : bytes;
    if (kept.length < bytes.length) this.overflowed = true;
    // Copy: the reader may reuse the chunk's memory after we return.
    this.parts.push(kept.slice());
    this.pending += kept.length;
  }

  private emit(): void {
    const bytes = this.parts.length === 1 ? (this.parts[0] as Uint8Array) : concat(this.parts, this.pending);
    this.parts = [];
    this.pending = 0;
    if (this.overflowed) this.truncated++;
    this.overflowed = false;
    const end = bytes.length > 0 && bytes[bytes.length - 1] === CR ? bytes.length - 1 : bytes.length;
    // A cut at maxLineBytes may split a character; the decoder replaces the remnant with U+FFFD.
    this.count++;
    this.onLine(this.decoder.decode(bytes.subarray(0, end)));
  }
}

function concat(parts: Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
