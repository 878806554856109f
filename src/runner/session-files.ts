/**
 * Keeps an ACP agent's own session file out of the way of its session/load, where the agent names
 * that file by the minute it was opened and re-opens the name on load (AcpProfile.sessionFiles;
 * gemini 0.61: a follow-up within the same minute erased the session it was to resume). The file
 * is moved to the latest free earlier minute's name, its content untouched — what a load in a
 * later minute finds anyway. Best effort: anything unreadable is left as it is.
 */
import { existsSync, readdirSync, renameSync } from "node:fs";
import { join } from "node:path";
import type { AcpProfile, Env } from "../backends/contract.ts";
import { log } from "../log.ts";

/** The minute a file name carries: `2026-12-07T11-58` (UTC, as gemini writes it). */
export function fileMinute(at: Date): string {
  return at.toISOString().slice(0, 16).replace(/:/g, "-");
}

export function spareSessionFile(files: NonNullable<AcpProfile["sessionFiles"]>, env: Env, home: string, sessionId: string, now = new Date()): void {
  const root = files.root(env, home);
  const current = files.name(sessionId, fileMinute(now));
  try {
    if (!existsSync(root)) return;
    for (const project of readdirSync(root)) {
      const chats = join(root, project, "chats");
      if (!existsSync(join(chats, current))) continue;
      const spare = freeEarlierName(files, chats, sessionId, now);
      if (spare) renameSync(join(chats, current), join(chats, spare));
    }
  } catch (error) {
    log.debug(`session file not moved before its load: ${String(error)}`);
  }
}

function freeEarlierName(files: NonNullable<AcpProfile["sessionFiles"]>, chats: string, sessionId: string, now: Date): string | undefined {
  for (let back = 1; back <= 24 * 60; back++) {
    const name = files.name(sessionId, fileMinute(new Date(now.getTime() - back * 60_000)));
    if (!existsSync(join(chats, name))) return name;
  }
  return undefined;
}
