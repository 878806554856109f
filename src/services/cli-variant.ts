/**
 * What a consult needs to know about the installed CLI beyond its adapter: two different programs
 * answer to `grok` (SPEC §2), and only xAI's Grok Build has sessions and streaming-json. The
 * variant is read from `grok --help` once per binary (path + mtime, so an upgrade is noticed).
 */
import { statSync } from "node:fs";
import { detectGrokVariant, grokSupportsResume } from "../adapters/grok.ts";
import type { GrokVariant } from "../adapters/types.ts";
import type { AgentConfig } from "../config/types.ts";
import { resolveCommand } from "../process/resolve.ts";
import { capture } from "../process/capture.ts";
import type { Runtime } from "./runtime.ts";

const HELP_TIMEOUT_MS = 10_000;

export interface AnswerTraits {
  supportsResume: boolean;
  grokVariant?: GrokVariant;
}

const variants = new Map<string, Promise<GrokVariant>>();

export async function answerTraits(rt: Runtime, agent: AgentConfig): Promise<AnswerTraits> {
  if (agent.backend !== "grok") return { supportsResume: rt.adapters[agent.backend].supportsResume };
  const grokVariant = await grokVariantOf(rt, agent);
  return { supportsResume: grokSupportsResume(grokVariant), grokVariant };
}

/** An uninstalled or unreadable grok counts as community: the variant that promises less. */
export async function grokVariantOf(rt: Runtime, agent: AgentConfig): Promise<GrokVariant> {
  const command = resolveCommand(agent.command ?? agent.backend, { env: rt.env });
  if (!command) return "community";
  const key = `${command.path}:${statSync(command.path, { throwIfNoEntry: false })?.mtimeMs ?? 0}`;
  let found = variants.get(key);
  if (!found) {
    found = readVariant(command.path, { ...rt.env, ...agent.env });
    variants.set(key, found);
  }
  return found;
}

async function readVariant(path: string, env: Record<string, string | undefined>): Promise<GrokVariant> {
  const out = await capture(path, ["--help"], env, { timeoutMs: HELP_TIMEOUT_MS });
  return !out.problem && out.stdout.trim() ? detectGrokVariant(out.stdout) : "community";
}
