/** Every tool, from the groups' defs. Importing this loads no schema, handler or service. */
import type { ToolDef } from "../define.ts";
import { blockAt, readRawConfig, type RawConfig } from "../../config/presence.ts";
import { coreTools } from "./core/def.ts";
import { consultTools } from "./consult/def.ts";
import { jobTools } from "./jobs/def.ts";
import { reviewTools } from "./review/def.ts";
import { workflowTools } from "./workflow/def.ts";
import { askTools } from "./ask/def.ts";
import { hasAskCapabilities } from "./ask/advertise.ts";
import { initTools } from "./init/def.ts";
import { historyTools } from "./history/def.ts";

/** Every tool the server can advertise, in tools/list order. */
export function allTools(): ToolDef[] {
  return [...coreTools, ...consultTools, ...jobTools, ...reviewTools, ...workflowTools, ...askTools, ...initTools, ...historyTools];
}

/**
 * Groups a config block switches on (review, ask): each reads the raw, unvalidated file (see
 * config/presence.ts) — the file is read at most once per process, and only if such a group exists.
 */
const CONFIG_GATED: Partial<Record<ToolDef["group"], (raw: RawConfig | undefined) => boolean>> = {
  // Seed 001: the review tools only with a consult.review block (either format keeps it there).
  review: (raw) => blockAt(raw, "consult", "review") !== undefined,
  // Seed 001: the workflow tools only with a consult.workflow block (either format keeps it there).
  workflow: (raw) => blockAt(raw, "consult", "workflow") !== undefined,
  // Seed 002: ask and list_capabilities only with capabilities that have deployments — the unified
  // ask: block, or a seed 002 file's model_list.
  ask: (raw) => hasAskCapabilities(raw),
};

/** The tools this process advertises: core always; opt-in groups by environment or by config block. */
export function activeTools(env: Record<string, string | undefined>): ToolDef[] {
  const optedIn: Partial<Record<ToolDef["group"], boolean>> = {
    init: env.ORCHESTRATE_ALLOW_INIT === "1" || env.MCP_ROUTER_ALLOW_INIT === "1",
    history: env.ORCHESTRATE_HISTORY_TOOLS === "1",
  };
  let raw: { value: RawConfig | undefined } | undefined;
  const gated = (group: ToolDef["group"]): boolean | undefined => {
    const gate = CONFIG_GATED[group];
    if (!gate) return undefined;
    raw ??= { value: readRawConfig(env) };
    return gate(raw.value);
  };
  const rawConfig = (): RawConfig | undefined => (raw ??= { value: readRawConfig(env) }).value;
  return allTools()
    .filter((tool) => optedIn[tool.group] ?? gated(tool.group) ?? true)
    .map((tool) => {
      const { advertise } = tool;
      return advertise ? { ...tool, wireInput: (generated: Record<string, unknown>) => advertise(generated, rawConfig()) } : tool;
    });
}
