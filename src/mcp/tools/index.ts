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
import { advertisedEntry, namingFor, nativeArgs, seedEntry, seedText, type Naming } from "./names.ts";

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
  // A file that only configures ask (orchestrator-mcp's own) names no agent: routing and consulting
  // could answer nothing, so tools/list shows what that tool advertised and no more.
  core: (raw) => !askOnly(raw),
  consult: (raw) => !askOnly(raw),
};

/** Ask capabilities, and nothing that names an agent: no agents, no tiers, no consult.agents. */
function askOnly(raw: RawConfig | undefined): boolean {
  if (!raw || !hasAskCapabilities(raw)) return false;
  return raw.agents === undefined && raw.tiers === undefined && blockAt(raw, "consult", "agents") === undefined;
}

/**
 * The history tools' switch. Orchestrator MCP advertised its deletion tools with the consult tools,
 * so under its names they are on unless switched off (ORCHESTRATE_HISTORY_TOOLS=0).
 */
function historyOn(env: Record<string, string | undefined>, naming: Naming): boolean {
  const switched = env.ORCHESTRATE_HISTORY_TOOLS;
  return switched === "1" || (naming === "orchestrator" && switched !== "0");
}

/** The tools this process advertises: core always; opt-in groups by environment or by config block; names per names.ts. */
export function activeTools(env: Record<string, string | undefined>): ToolDef[] {
  let raw: { value: RawConfig | undefined } | undefined;
  const rawConfig = (): RawConfig | undefined => (raw ??= { value: readRawConfig(env) }).value;
  const naming = namingFor(env, rawConfig);
  const optedIn: Partial<Record<ToolDef["group"], boolean>> = {
    init: env.ORCHESTRATE_ALLOW_INIT === "1" || env.MCP_ROUTER_ALLOW_INIT === "1",
    history: historyOn(env, naming),
  };
  const gated = (group: ToolDef["group"]): boolean | undefined => CONFIG_GATED[group]?.(rawConfig());
  return allTools()
    .filter((tool) => optedIn[tool.group] ?? gated(tool.group) ?? true)
    .map((tool) => {
      const { advertise } = tool;
      const bound = advertise ? { ...tool, wireInput: (generated: Record<string, unknown>) => advertise(generated, rawConfig()) } : tool;
      const entry = naming === "orchestrator" ? advertisedEntry(tool.name) : undefined;
      return entry ? { ...bound, wireName: entry.seed, description: seedText(bound.description) } : bound;
    });
}

/**
 * The tool a call names, under either name: the advertised one, orchestrate's own, or any seed name
 * in names.ts — its arguments renamed to orchestrate's on the way in.
 */
export function resolveTool(tools: readonly ToolDef[], name: string): ToolDef | undefined {
  const byWire = tools.find((t) => (t.wireName ?? t.name) === name);
  const entry = seedEntry(name) ?? (byWire?.wireName ? seedEntry(byWire.wireName) : undefined);
  const tool = byWire ?? tools.find((t) => t.name === (entry?.tool ?? name));
  if (!tool || !entry) return tool;
  return { ...tool, call: (args, ctx) => tool.call(nativeArgs(entry, args), ctx) };
}
