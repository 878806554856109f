/**
 * init and import at a terminal: when writing their target would shadow the config the server reads
 * today (or be ignored because of it), say so and offer to write to the live file instead.
 */
import { liveConflict } from "./target.ts";
import { select } from "./prompts.ts";
import type { Env } from "../config/paths.ts";
import { stderr } from "../safety/egress.ts";

/** The path to write: the target, or the live config when the person picks it. Cancel throws Cancelled. */
export async function chooseTarget(env: Env, target: string): Promise<string> {
  const conflict = liveConflict(env, target);
  if (!conflict) return target;
  stderr.write(`\n! ${conflict.message}\n`);
  const live = conflict.live.path;
  const picked = await select<"live" | "target">(
    "Where should the config go?",
    [
      { value: "live", label: `Write to ${live} instead`, hint: "the file the server reads now; it is replaced in orchestrate's format" },
      { value: "target", label: `Write ${target} anyway` },
    ],
    "live",
  );
  return picked === "live" ? live : target;
}
