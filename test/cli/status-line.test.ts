import { describe, expect, test } from "bun:test";
import { StatusLine } from "../../src/cli/status-line.ts";

function stream(isTTY: boolean) {
  const writes: string[] = [];
  return { isTTY, writes, write: (t: string) => writes.push(t) };
}

describe("run's status line", () => {
  test("piped: one line per change, heartbeats repeating the same text print nothing", () => {
    const s = stream(false);
    const line = new StatusLine(s);
    for (const m of [
      "attempt 1 codex-main: thinking",
      "attempt 1 codex-main: thinking",
      "attempt 1 codex-main: running ls",
      "attempt 1 codex-main: running ls",
    ])
      line.update(m);
    line.done();
    expect(s.writes).toEqual(["… attempt 1 codex-main: thinking\n", "… attempt 1 codex-main: running ls\n"]);
  });

  test("on a terminal: redrawn in place with spinner and elapsed, one newline at the end", () => {
    const s = stream(true);
    let t = 0;
    const line = new StatusLine(s, () => t);
    line.update("attempt 1 codex-main: thinking");
    t = 4000;
    line.update("attempt 1 codex-main: thinking");
    line.done();
    expect(s.writes).toEqual(["\r\x1b[2K⠋ attempt 1 codex-main: thinking · 0 s", "\r\x1b[2K⠙ attempt 1 codex-main: thinking · 4 s", "\n"]);
    expect(s.writes.join("").split("\n")).toHaveLength(2);
  });
});
