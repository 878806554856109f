import { describe, expect, test } from "bun:test";
import { LineSplitter } from "../../src/process/lines.ts";
import { ByteTail, LineTail, looksLikeJson } from "../../src/process/tail.ts";

const enc = new TextEncoder();

function split(chunks: Uint8Array[], maxLineBytes?: number): { lines: string[]; splitter: LineSplitter } {
  const lines: string[] = [];
  const splitter = new LineSplitter((line) => lines.push(line), maxLineBytes);
  for (const chunk of chunks) splitter.push(chunk);
  splitter.flush();
  return { lines, splitter };
}

describe("LineSplitter", () => {
  test("reassembles multi-byte characters and lines cut at every byte", () => {
    const bytes = enc.encode('{"t":"héllo 🎉"}\r\nsecond ✓\nlast without newline');
    const oneByteChunks = [...bytes].map((b) => Uint8Array.of(b));
    const { lines, splitter } = split(oneByteChunks);
    expect(lines).toEqual(['{"t":"héllo 🎉"}', "second ✓", "last without newline"]);
    expect(splitter.count).toBe(3);
  });

  test("several lines in one chunk, empty lines kept, no phantom line after a final newline", () => {
    expect(split([enc.encode("a\n\nb\n")]).lines).toEqual(["a", "", "b"]);
  });

  test("a line longer than maxLineBytes keeps its head and the next line is intact", () => {
    const long = "x".repeat(100);
    const { lines, splitter } = split([enc.encode(long.slice(0, 30)), enc.encode(`${long.slice(30)}\nnext\n`)], 16);
    expect(lines).toEqual(["x".repeat(16), "next"]);
    expect(splitter.truncated).toBe(1);
  });
});

describe("tails", () => {
  test("ByteTail keeps only the last bytes, across wraps and oversized chunks", () => {
    const tail = new ByteTail(8);
    tail.push(enc.encode("abcdef"));
    tail.push(enc.encode("ghij"));
    expect(tail.text()).toBe("cdefghij");
    tail.push(enc.encode("0123456789XYZ"));
    expect(tail.text()).toBe("56789XYZ");
  });

  test("ByteTail drops a character cut in half at its start", () => {
    const tail = new ByteTail(5);
    tail.push(enc.encode("a🎉bcd")); // 🎉 is 4 bytes; the last 5 bytes start inside it
    expect(tail.text()).toBe("bcd");
  });

  test("LineTail keeps the last lines within its limit", () => {
    const tail = new LineTail(10);
    for (const line of ["one", "two", "three", "four"]) tail.push(line);
    expect(tail.text()).toBe("three\nfour");
  });

  test("looksLikeJson tells records from plain text", () => {
    expect(looksLikeJson(' {"type":"x"} ')).toBe(true);
    expect(looksLikeJson("Error: not logged in")).toBe(false);
  });
});
