/**
 * Which model actually answered, read where each CLI reveals it beyond its stream: codex only in
 * its session rollout, opencode through `opencode export`, copilot in its usage file, Grok Build in
 * its session summary. Every reader is best effort: nothing found means "unverified", never a guess.
 */
import { readdirSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { RunRequest, Usage } from "../adapters/types.ts";
import { codexHomeFor, codexModelFromRollout, isCodexRolloutFor } from "../adapters/codex.ts";
import { opencodeExportArgv, opencodeModelFromExport } from "../adapters/opencode.ts";
import { copilotUsageFilePath, copilotUsageFromUsageFile } from "../adapters/copilot.ts";
import { grokBuildSummaryPath, grokModelFromSummary } from "../adapters/grok.ts";
import type { AgentConfig } from "../config/types.ts";
import { resolveCommand } from "../process/resolve.ts";
import { capture } from "../process/capture.ts";
import { log } from "../log.ts";

const EXPORT_TIMEOUT_MS = 10_000;
/** `opencode export` pretty-prints the whole session; a resumed consultation can be long. */
const EXPORT_MAX_LINES = 200_000;

export interface SideReport {
  models: string[];
  /** Usage the stream did not carry (copilot writes tokens only to its usage file). */
  usage?: Usage;
}

export interface SideInput {
  agent: AgentConfig;
  env: Record<string, string | undefined>;
  request: RunRequest;
  sessionId: string | undefined;
}

export async function sideChannelModels(input: SideInput): Promise<SideReport> {
  try {
    switch (input.agent.backend) {
      case "codex":
        return { models: optional(input.sessionId && codexRolloutModel(input.env, input.sessionId)) };
      case "opencode":
        return { models: optional(input.sessionId && (await opencodeExportModel(input))) };
      case "copilot":
        return copilotReport(input.request);
      case "grok":
        return { models: optional(input.sessionId && grokSummaryModel(input.env, input.request.cwd, input.sessionId)) };
      default:
        return { models: [] };
    }
  } catch (error) {
    log.debug(`model identity side channel failed for ${input.agent.id}`, error);
    return { models: [] };
  }
}

function optional(model: string | undefined | false | ""): string[] {
  return model ? [model] : [];
}

/** The rollout named after the thread id, anywhere under $CODEX_HOME/sessions (a resumed thread keeps its first day's file). */
export function codexRolloutModel(env: Record<string, string | undefined>, threadId: string): string | undefined {
  const root = join(codexHomeFor(env, env.HOME ?? homedir()), "sessions");
  const files = readdirSync(root, { recursive: true }).map(String);
  const hit = files.find((f) => isCodexRolloutFor(f.split("/").at(-1) ?? "", threadId));
  return hit ? codexModelFromRollout(readFileSync(join(root, hit), "utf8")) : undefined;
}

async function opencodeExportModel(input: SideInput): Promise<string | undefined> {
  const command = resolveCommand(input.agent.command ?? "opencode", { env: input.env });
  if (!command || !input.sessionId) return undefined;
  // Sessions belong to the project they ran in: export from the same cwd.
  const out = await capture(command.path, opencodeExportArgv(input.sessionId), input.env, { timeoutMs: EXPORT_TIMEOUT_MS, cwd: input.request.cwd, maxLines: EXPORT_MAX_LINES });
  return out.ok ? opencodeModelFromExport(out.stdout) : undefined;
}

function copilotReport(request: RunRequest): SideReport {
  const path = copilotUsageFilePath(request);
  if (!path) return { models: [] };
  const report = copilotUsageFromUsageFile(readFileSync(path, "utf8"));
  return report ? { models: report.models, usage: report.usage } : { models: [] };
}

function grokSummaryModel(env: Record<string, string | undefined>, cwd: string, sessionId: string): string | undefined {
  return grokModelFromSummary(readFileSync(grokBuildSummaryPath(env.HOME ?? homedir(), cwd, sessionId), "utf8"));
}
