/**
 * Bounded tails. A delegate can print megabytes of stderr or plain-text stdout; only the end is
 * useful for classification, so nothing here grows past its limit.
 */

const decoder = new TextDecoder("utf-8", { fatal: false });

/** Keeps the last `limit` bytes written to it, as a ring over one fixed buffer. */
export class ByteTail {
  private readonly buf: Uint8Array;
  private start = 0;
  private size = 0;

  constructor(readonly limit: number) {
    this.buf = new Uint8Array(Math.max(0, limit));
  }

  push(chunk: Uint8Array): void {
    const cap = this.buf.length;
    if (cap === 0) return;
    // Only the last `cap` bytes of a large chunk can survive anyway.
    const data = chunk.length > cap ? chunk.subarray(chunk.length - cap) : chunk;
    for (let offset = 0; offset < data.length; ) {
      const end = (this.start + this.size) % cap;
      const room = Math.min(data.length - offset, cap - end);
      this.buf.set(data.subarray(offset, offset + room), end);
      offset += room;
      this.size += room;
      if (this.size > cap) {
        this.start = (this.start + (this.size - cap)) % cap;
        this.size = cap;
      }
    }
  }

  bytes(): Uint8Array {
    const cap = this.buf.length;
    const out = new Uint8Array(this.size);
    const first = Math.min(this.size, cap - this.start);
    out.set(this.buf.subarray(this.start, this.start + first), 0);
    out.set(this.buf.subarray(0, this.size - first), first);
    return out;
  }

  /** The tail as text, without a UTF-8 sequence cut in half at its start. */
  text(): string {
    const bytes = this.bytes();
    return decoder.decode(bytes.subarray(leadingContinuationBytes(bytes)));
  }
}

/** Number of UTF-8 continuation bytes (10xxxxxx) at the start: the remains of a cut character. */
function leadingContinuationBytes(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length && i < 3 && ((bytes[i] ?? 0) & 0xc0) === 0x80) i++;
  return i;
}

/** Keeps the last lines whose total length stays within `limitChars`. */
export class LineTail {
  private lines: string[] = [];
  private chars = 0;

  constructor(readonly limitChars: number) {}

  push(line: string): void {
    const kept = line.length > this.limitChars ? line.slice(line.length - this.limitChars) : line;
    this.lines.push(kept);
    this.chars += kept.length + 1;
    while (this.chars - 1 > this.limitChars && this.lines.length > 1) {
      this.chars -= (this.lines.shift() ?? "").length + 1;
    }
  }

  text(): string {
    return this.lines.join("\n");
  }
}

/**
 * Cheap test for "this stdout line is a JSON record", to keep only the plain-text lines some CLIs
 * print on stdout (errors, banners). Parsing every line twice would double the cost of a stream.
 */
export function looksLikeJson(line: string): boolean {
  const t = line.trim();
  return (t.startsWith("{") && t.endsWith("}")) || (t.startsWith("[") && t.endsWith("]"));
}
