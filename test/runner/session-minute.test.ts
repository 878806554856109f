/** The wait before a resume in the minute a session's file is named by (runner/session-minute.ts). */
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { geminiAcp } from "../../src/backends/gemini/acp.ts";
import { listSessionFiles, loadWaitMs, MINUTE_MARGIN_MS, MINUTE_MS, minuteMsOf, minuteName } from "../../src/runner/session-minute.ts";

let home = "";
afterEach(() => rmSync(home, { recursive: true, force: true }));

const files = geminiAcp.sessionFiles;
if (!files) throw new Error("gemini declares its session files");
const ID = "c56e12da-06de-400d-8a01-b11cb73ed251";
const NOW = Date.parse("2026-12-07T11:58:30Z");
const real = (now: number) => ({ now, minuteMs: MINUTE_MS });

describe("the wait decision", () => {
  test("a minute reads as gemini names its files: UTC, to the minute", () => {
    expect(minuteName(NOW)).toBe("2026-12-07T11-58");
    expect(minuteName(Date.parse("2026-12-07T11:58:59.999Z"))).toBe("2026-12-07T11-58");
    expect(minuteName(Date.parse("2026-12-07T11:59:00Z"))).toBe("2026-12-07T11-59");
  });

  test("the session's file bears this minute's name: wait until the minute turns, plus the margin", () => {
    const listed = ["session-2026-12-07T11-58-c56e12da.jsonl"];
    expect(loadWaitMs(files, listed, ID, real(NOW))).toBe(30_000 + MINUTE_MARGIN_MS);
    expect(loadWaitMs(files, listed, ID, real(Date.parse("2026-12-07T11:58:00Z")))).toBe(60_000 + MINUTE_MARGIN_MS);
    expect(loadWaitMs(files, listed, ID, real(Date.parse("2026-12-07T11:58:59.900Z")))).toBe(100 + MINUTE_MARGIN_MS);
  });

  test("no wait once the minute has turned, nor for another session's file of this minute", () => {
    expect(loadWaitMs(files, ["session-2026-12-07T11-57-c56e12da.jsonl"], ID, real(NOW))).toBe(0);
    expect(loadWaitMs(files, ["session-2026-12-07T11-58-516f60c8.jsonl"], ID, real(NOW))).toBe(0);
    expect(loadWaitMs(files, [], ID, real(NOW))).toBe(0);
  });

  test("an earlier load's file of this minute counts too: the next load would open it afresh", () => {
    const listed = ["session-2026-12-07T11-40-c56e12da.jsonl", "session-2026-12-07T11-58-c56e12da.jsonl"];
    expect(loadWaitMs(files, listed, ID, real(NOW))).toBe(30_000 + MINUTE_MARGIN_MS);
  });

  test("the seam: minutes of another length name and turn alike; unset or garbage is a real minute", () => {
    const clock = { now: 10_000 * 4000 + 2500, minuteMs: 4000 };
    const listed = [files.name(ID, minuteName(clock.now, 4000))];
    expect(loadWaitMs(files, listed, ID, clock)).toBe(1500 + MINUTE_MARGIN_MS);
    expect(loadWaitMs(files, listed, ID, { ...clock, now: 10_001 * 4000 })).toBe(0);
    expect(minuteMsOf({})).toBe(MINUTE_MS);
    expect(minuteMsOf({ ORCHESTRATE_TEST_MINUTE_MS: "nope" })).toBe(MINUTE_MS);
    expect(minuteMsOf({ ORCHESTRATE_TEST_MINUTE_MS: "0" })).toBe(MINUTE_MS);
    expect(minuteMsOf({ ORCHESTRATE_TEST_MINUTE_MS: "4000" })).toBe(4000);
  });
});

describe("the listing", () => {
  test("every project's chats are listed and nothing in them is touched; no gemini home lists nothing", () => {
    home = mkdtempSync(join(tmpdir(), "orch-minute-"));
    expect(listSessionFiles(files, {}, home)).toEqual([]);
    const chats = join(home, "g", ".gemini", "tmp", "proj", "chats");
    mkdirSync(chats, { recursive: true });
    mkdirSync(join(home, "g", ".gemini", "tmp", "bin"), { recursive: true });
    writeFileSync(join(chats, "session-2026-12-07T11-58-c56e12da.jsonl"), "the session\n");
    expect(listSessionFiles(files, { GEMINI_CLI_HOME: join(home, "g") }, home)).toEqual(["session-2026-12-07T11-58-c56e12da.jsonl"]);
    expect(readdirSync(chats)).toEqual(["session-2026-12-07T11-58-c56e12da.jsonl"]);
    expect(readFileSync(join(chats, "session-2026-12-07T11-58-c56e12da.jsonl"), "utf8")).toBe("the session\n");
  });
});
