/**
 * Staging a config for a human to accept. `init_apply` may only ever write `<config>.pending`;
 * promotion happens in `accept-pending`, at a terminal, after the person saw the diff and risks.
 */
import { rmSync } from "node:fs";
import { resolve } from "node:path";
import { fail, ok, type Result } from "../result.ts";
import { writeConfigAtomic, type WriteCode } from "../config/write.ts";
import { readSecureFile } from "../config/secure-read.ts";
import type { Env } from "../config/paths.ts";
import { prepareText, type Proposal } from "./proposal.ts";

export function pendingPath(configPath: string): string {
  return `${resolve(configPath)}.pending`;
}

/** Writes only the `.pending` sibling, atomically and 0600; the live file is never opened. */
export function stagePending(configPath: string, text: string): Result<string, WriteCode> {
  return writeConfigAtomic(pendingPath(configPath), text);
}

/** Reads the staged file through the hardened read and prepares it against the live file. */
export async function loadPending(configPath: string, env: Env): Promise<Result<Proposal>> {
  const staged = pendingPath(configPath);
  const read = readSecureFile(staged);
  if (!read.ok) {
    if (read.error.code === "config_absent")
      return fail("no_pending", `nothing is staged: ${staged} does not exist`, "stage a config with the init_apply tool first");
    return read;
  }
  return prepareText(read.value, resolve(configPath), env);
}

/**
 * Promotes exactly the text that was shown (not whatever the .pending file holds now), then
 * removes the staged file.
 */
export function promote(proposal: Proposal): Result<string> {
  const written = writeConfigAtomic(proposal.path, proposal.text);
  if (!written.ok) return written;
  rmSync(pendingPath(proposal.path), { force: true });
  return ok(written.value);
}
