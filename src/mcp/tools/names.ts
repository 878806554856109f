/**
 * Orchestrator MCP's tool names (its 30 `orchestrator_*` tools), mapped to the orchestrate tool that
 * does each one's job. People's prompts, skills and permission allowlists
 * (`mcp__orchestrator__orchestrator_consult`) name these, so:
 *  - when the config is Orchestrator MCP's (config/seed-shape.ts) or ORCHESTRATE_TOOL_NAMES=orchestrator,
 *    tools/list advertises the seed name of every tool in this table — one name per tool, never both —
 *    and descriptions and prompts name the tools that way;
 *  - a call under either name works, whatever is advertised; the seed's argument names are renamed
 *    to orchestrate's on the way in (confirm_token → token, target_agent → agent, …).
 * Plain data and string functions: it runs for tools/list, before any schema library loads.
 *
 * Seed tools with no orchestrate counterpart answer unknown_tool: orchestrator_apply_fixes and
 * orchestrator_record_fix_round (fix rounds live in workflows here), orchestrator_test_reviewers
 * (`orchestrate check`), and the workflow delete-all pair (workflow_delete deletes one).
 */
import { seedShapeOf } from "../../config/seed-shape.ts";
import { readRawConfig, type RawConfig } from "../../config/presence.ts";

export type Naming = "orchestrate" | "orchestrator";

export interface SeedName {
  /** The seed's tool name. */
  seed: string;
  /** The orchestrate tool that answers it. */
  tool: string;
  /** false: callable under this name, but another seed name (or the tool's own) is the one advertised. */
  advertised?: false;
  /** The seed's argument name → orchestrate's, applied when only the seed's is present. */
  rename?: Readonly<Record<string, string>>;
  /** Arguments this name implies, applied when absent (a per-kind seed tool on a tool that takes a kind). */
  implies?: Readonly<Record<string, string>>;
}

const TOKEN = { confirm_token: "token" } as const;

export const ORCHESTRATOR_MCP_NAMES: readonly SeedName[] = [
  { seed: "orchestrator_consult", tool: "consult", rename: { target_agent: "agent" } },
  { seed: "orchestrator_list_consult_agents", tool: "list_agents" },
  { seed: "orchestrator_get_consultation", tool: "get_consultation", rename: { consultation_id: "id" } },
  { seed: "orchestrator_review", tool: "review" },
  { seed: "orchestrator_review_run", tool: "review_run", rename: TOKEN },
  { seed: "orchestrator_retry_review", tool: "review_retry", rename: { agent_ids: "reviewers" } },
  { seed: "orchestrator_finalize_review", tool: "review_finalize" },
  { seed: "orchestrator_cancel_review", tool: "review_cancel" },
  { seed: "orchestrator_get_review", tool: "review_get" },
  { seed: "orchestrator_list_reviews", tool: "review_list" },
  { seed: "orchestrator_workflow_start", tool: "workflow_start" },
  { seed: "orchestrator_workflow_plan_step", tool: "workflow_plan_step" },
  { seed: "orchestrator_workflow_run_step", tool: "workflow_run_step", rename: TOKEN },
  { seed: "orchestrator_workflow_record_host_step", tool: "workflow_record_host_step", rename: TOKEN },
  { seed: "orchestrator_workflow_status", tool: "workflow_status" },
  // orchestrate's replan is one tool in two calls (preview without token, apply with it).
  { seed: "orchestrator_workflow_replan", tool: "workflow_replan", rename: TOKEN },
  { seed: "orchestrator_workflow_plan_replan", tool: "workflow_replan", advertised: false },
  { seed: "orchestrator_workflow_cancel", tool: "workflow_cancel" },
  { seed: "orchestrator_delete_workflow", tool: "workflow_delete" },
  { seed: "orchestrator_delete_consultation", tool: "delete_consultation", rename: { consultation_id: "id" } },
  { seed: "orchestrator_delete_review", tool: "delete_review", rename: { review_id: "id" } },
  // The seed's request tools are one per kind; orchestrate's takes the kind as an argument.
  { seed: "orchestrator_request_delete_all", tool: "request_delete_all", implies: { kind: "reviews" } },
  { seed: "orchestrator_request_delete_all_consultations", tool: "request_delete_all", advertised: false, implies: { kind: "consultations" } },
  // The kind travels in the token, so the generic confirm keeps its own name; the seed's per-kind names still call it.
  { seed: "orchestrator_delete_all_consultations", tool: "confirm_delete_all", advertised: false, rename: TOKEN },
  { seed: "orchestrator_delete_all_reviews", tool: "confirm_delete_all", advertised: false, rename: TOKEN },
];

/** Seed names when asked for, or when the config file is Orchestrator MCP's own; orchestrate's otherwise. */
export function namingFor(env: Record<string, string | undefined>, raw: () => RawConfig | undefined): Naming {
  const asked = env.ORCHESTRATE_TOOL_NAMES;
  if (asked === "orchestrator" || asked === "orchestrate") return asked;
  return seedShapeOf(raw()) === "orchestrator" ? "orchestrator" : "orchestrate";
}

/**
 * Whether the client is written against a seed's envelopes: the config is Orchestrator MCP's or
 * orchestrator-mcp's, or seed names were asked for. Both seeds answer every tool with its result
 * as JSON in the text block too ("a client that reads only one of the two still gets the whole
 * envelope"), so ask and consult then do the same (mcp/define.ts).
 */
export function seedClient(env: Record<string, string | undefined>): boolean {
  const asked = env.ORCHESTRATE_TOOL_NAMES;
  if (asked === "orchestrator" || asked === "orchestrate") return asked === "orchestrator";
  return seedShapeOf(readRawConfig(env)) !== undefined;
}

const ADVERTISED = new Map(ORCHESTRATOR_MCP_NAMES.filter((n) => n.advertised !== false).map((n) => [n.tool, n]));
const BY_SEED = new Map(ORCHESTRATOR_MCP_NAMES.map((n) => [n.seed, n]));

/** The seed entry a tool is advertised under, if it has one. */
export function advertisedEntry(tool: string): SeedName | undefined {
  return ADVERTISED.get(tool);
}

export function seedEntry(name: string): SeedName | undefined {
  return BY_SEED.get(name);
}

/** The call's arguments in orchestrate's names: the seed's renamed, the name's implied ones added. */
export function nativeArgs(entry: SeedName | undefined, args: unknown): unknown {
  if (!entry || (!entry.rename && !entry.implies)) return args;
  if (args !== undefined && (typeof args !== "object" || args === null || Array.isArray(args))) return args;
  const out: Record<string, unknown> = { ...(args as Record<string, unknown> | undefined) };
  for (const [from, to] of Object.entries(entry.rename ?? {})) {
    if (from in out && !(to in out)) {
      out[to] = out[from];
      delete out[from];
    }
  }
  for (const [key, value] of Object.entries(entry.implies ?? {})) if (!(key in out)) out[key] = value;
  return out;
}

/** Every advertised tool name, longest first so `review_run` is replaced before `review`. */
const RENAMED = [...ADVERTISED.keys()].sort((a, b) => b.length - a.length);
const UNDERSCORED = new RegExp(`\\b(${RENAMED.filter((n) => n.includes("_")).join("|")})\\b`, "g");
const QUOTED = new RegExp(`\`(${RENAMED.join("|")})\``, "g");

/**
 * A description or prompt text with tool names in the seed's form: every `quoted` name, and every
 * bare name that has an underscore (a bare "consult" or "review" is also an ordinary word).
 */
export function seedText(text: string): string {
  const seed = (name: string) => ADVERTISED.get(name)?.seed ?? name;
  return text.replace(QUOTED, (_m, name: string) => `\`${seed(name)}\``).replace(UNDERSCORED, (_m, name: string) => seed(name));
}
