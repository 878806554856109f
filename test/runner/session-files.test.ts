/** An ACP agent's minute-named session file moved aside before its load (runner/session-files.ts). */
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { geminiAcp } from "../../src/backends/gemini/acp.ts";
import { spareSessionFile } from "../../src/runner/session-files.ts";

let home = "";
afterEach(() => rmSync(home, { recursive: true, force: true }));

const files = geminiAcp.sessionFiles;
if (!files) throw new Error("gemini declares its session files");
const ID = "c56e12da-06de-400d-8a01-b11cb73ed251";
const NOW = new Date("2026-12-07T11:58:30Z");

describe("session files named by the minute", () => {
  test("this minute's file moves to the latest free earlier minute, content untouched; other files stay", () => {
    home = mkdtempSync(join(tmpdir(), "orch-sessfiles-"));
    const chats = join(home, ".gemini", "tmp", "orchestrate-consult-x", "chats");
    mkdirSync(chats, { recursive: true });
    writeFileSync(join(chats, "session-2026-12-07T11-58-c56e12da.jsonl"), "the session\n");
    // A context-only file an earlier load left under the previous minute's name.
    writeFileSync(join(chats, "session-2026-12-07T11-57-c56e12da.jsonl"), "older\n");
    writeFileSync(join(chats, "session-2026-12-07T11-58-516f60c8.jsonl"), "another session\n");
    spareSessionFile(files, {}, home, ID, NOW);
    expect(readdirSync(chats).sort()).toEqual([
      "session-2026-12-07T11-56-c56e12da.jsonl",
      "session-2026-12-07T11-57-c56e12da.jsonl",
      "session-2026-12-07T11-58-516f60c8.jsonl",
    ]);
    expect(readFileSync(join(chats, "session-2026-12-07T11-56-c56e12da.jsonl"), "utf8")).toBe("the session\n");
  });

  test("nothing in this minute's name, or no gemini home at all: nothing moves", () => {
    home = mkdtempSync(join(tmpdir(), "orch-sessfiles-"));
    spareSessionFile(files, {}, home, ID, NOW);
    const chats = join(home, "g", ".gemini", "tmp", "p", "chats");
    mkdirSync(chats, { recursive: true });
    writeFileSync(join(chats, "session-2026-12-07T11-40-c56e12da.jsonl"), "x\n");
    spareSessionFile(files, { GEMINI_CLI_HOME: join(home, "g") }, home, ID, NOW);
    expect(readdirSync(chats)).toEqual(["session-2026-12-07T11-40-c56e12da.jsonl"]);
  });
});
