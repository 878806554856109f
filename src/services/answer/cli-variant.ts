/**
 * What a run needs to know about the installed CLI beyond its backend: which build it is (the
 * backend's own variant probe, run once per binary) and what that build can do.
 */
import type { AgentConfig } from "../../config/types.ts";
import { resolveCommand } from "../../process/resolve.ts";
import { variantOf, variantTraits } from "../../runner/variant.ts";
import type { Runtime } from "../shared/runtime.ts";

export interface AnswerTraits {
  supportsResume: boolean;
  variant?: string;
}

export async function answerTraits(rt: Runtime, agent: AgentConfig): Promise<AnswerTraits> {
  const variant = await agentVariant(rt, agent);
  return { supportsResume: variantTraits(rt.adapters[agent.backend], variant).supportsResume, ...(variant !== undefined ? { variant } : {}) };
}

/** undefined when the backend has no variants or its CLI is not installed (the backend's default applies). */
export async function agentVariant(rt: Runtime, agent: AgentConfig): Promise<string | undefined> {
  const adapter = rt.adapters[agent.backend];
  if (!adapter.variant) return undefined;
  const command = resolveCommand(agent.command ?? agent.backend, { env: rt.env, homeDirs: adapter.installDirs });
  return command ? variantOf(adapter, command.path, { ...rt.env, ...agent.env }) : undefined;
}
