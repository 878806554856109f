/**
 * One agent entry (named under `agents:` or inline in a tier/slot) → AgentConfig, applying the
 * rules that tie fields together. Every broken rule is one error line on the offending key.
 */
import type { OptionValue, OptionValues, UsageFigure } from "../backends/contract.ts";
import { drivenFacts, drivenName } from "../backends/driven.ts";
import { adapters, AGENT_OPTION_KEYS, BACKENDS, type Backend } from "../backends/index.ts";
import { DEFAULTS } from "./defaults.ts";
import { errorLine } from "./format-errors.ts";
import { placeholderProblem } from "./placeholder.ts";
import { deriveProvider, modelPrefix } from "./providers.ts";
import type { AgentEntryFile } from "./schema.ts";
import type { AgentConfig } from "./types.ts";

export type PathFn = (parts: readonly PropertyKey[]) => string;

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
export const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
/** Variables the recursion guard and the config lookup depend on: an agent may not override them. */
const RESERVED_ENV = /^(ORCHESTRATE_|MCP_ROUTER_|ORCHESTRATOR_)/;

/** The entry's backend-only keys (codex's sandbox, claude's permissionMode…) that it sets. */
function optionsOf(entry: AgentEntryFile): OptionValues {
  const options: Record<string, OptionValue> = {};
  for (const [key, value] of Object.entries(entry))
    if (AGENT_OPTION_KEYS.includes(key) && isOptionValue(value)) options[key] = typeof value === "string" ? value : [...value];
  return options;
}

function isOptionValue(value: unknown): value is OptionValue {
  return typeof value === "string" || (Array.isArray(value) && value.every((v) => typeof v === "string"));
}

/** A backend-only key set on another backend's entry. */
function onlyFor(entry: AgentEntryFile, at: readonly PropertyKey[], path: PathFn, errors: string[]): void {
  for (const key of Object.keys(optionsOf(entry))) {
    if (adapters[entry.backend].options?.[key] !== undefined) continue;
    const owner = BACKENDS.find((b) => adapters[b].options?.[key] !== undefined);
    const note = owner ? adapters[owner].options?.[key] : undefined;
    errors.push(
      errorLine(
        path([...at, key]),
        `${key} is ${owner ?? "no backend's"}-only, this entry's backend is ${entry.backend}`,
        `remove ${key}${note ? `; ${note}` : ""}`,
      ),
    );
  }
}

function checkModel(entry: AgentEntryFile, advisory: boolean, at: readonly PropertyKey[], path: PathFn, errors: string[]): void {
  const rule = adapters[entry.backend].provider;
  if (advisory && !adapters[entry.backend].advisoryHint) {
    const advisable = BACKENDS.filter((b) => adapters[b].advisoryHint).join(" and ");
    errors.push(errorLine(path([...at, "advisory"]), `advisory is only for ${advisable}, this entry's backend is ${entry.backend}`, "remove advisory"));
  }
  if (entry.model === undefined && !advisory && !adapters[entry.backend].modelOptional) {
    const example = rule.kind === "model-prefix" ? rule.example : "<model>";
    errors.push(
      errorLine(path([...at, "model"]), "missing: orchestrate never picks a model for you", `add model: ${example}, as your ${entry.backend} CLI names it`),
    );
    return;
  }
  const placeholder = placeholderProblem(entry.model, `a model id your ${entry.backend} CLI accepts (orchestrate init lists them)`);
  if (placeholder) {
    errors.push(errorLine(path([...at, "model"]), placeholder.what, placeholder.fix));
    return;
  }
  if (rule.kind === "model-prefix" && entry.model !== undefined && modelPrefix(entry.model) === undefined) {
    errors.push(
      errorLine(
        path([...at, "model"]),
        `${entry.backend} models are written ${rule.example}, was ${JSON.stringify(entry.model)}`,
        `prefix the model with its provider, as \`${entry.backend} models\` lists it`,
      ),
    );
  }
}

function checkProvider(entry: AgentEntryFile, at: readonly PropertyKey[], path: PathFn, errors: string[]): { provider: string; aggregator: boolean } {
  const rule = adapters[entry.backend].provider;
  if (rule.kind === "declared" && entry.provider === undefined) {
    errors.push(
      errorLine(
        path([...at, "provider"]),
        `missing: a ${entry.backend} agent names its provider (its model id alone does not say which)`,
        `add provider: <id>, as your ${entry.backend} CLI names it (e.g. anthropic, openai, google)`,
      ),
    );
  }
  const derived = deriveProvider(rule, entry.model, entry.provider) ?? { provider: "unknown", aggregator: false };
  if (rule.kind !== "declared" && entry.provider !== undefined && entry.provider !== derived.provider && derived.provider !== "unknown") {
    const why =
      rule.kind === "model-prefix"
        ? `the model prefix says ${JSON.stringify(derived.provider)}`
        : `backend ${entry.backend} always uses ${JSON.stringify(derived.provider)}`;
    errors.push(
      errorLine(
        path([...at, "provider"]),
        `declared ${JSON.stringify(entry.provider)} but ${why}`,
        `remove provider, it is derived; or set it to ${JSON.stringify(derived.provider)}`,
      ),
    );
  }
  return derived;
}

/** The usage figure each limit reads. */
export const LIMIT_FIGURES = { maxTokens: "tokens", maxCostUsd: "cost", maxTurns: "turns" } as const satisfies Record<string, UsageFigure>;

/** A limit on a figure the backend never reports could never fire: refused, never silently kept. */
function checkLimits(entry: AgentEntryFile, transport: "acp" | undefined, at: readonly PropertyKey[], path: PathFn, errors: string[]): void {
  for (const problem of unenforceableLimits({ backend: entry.backend, ...(transport ? { transport } : {}) }, entry.limits ?? {}))
    errors.push(errorLine(path([...at, "limits", problem.key]), problem.message, problem.fix));
}

/**
 * Read from the facts of the agent's transport: an ACP launch reports what its profile says, not
 * what the headless driver does. A cost the CLI never reports is estimated from its tokens and the
 * model's price (docs/cost.md), so maxCostUsd stands where tokens are reported and `priced` is not
 * false: the config is checked before any price is read, a call again once the price is known.
 */
export function unenforceableLimits(
  agent: Pick<AgentConfig, "backend" | "transport">,
  limits: Partial<Record<keyof typeof LIMIT_FIGURES, number>>,
  priced = true,
): { key: string; message: string; fix: string }[] {
  const usage = drivenFacts(adapters[agent.backend], agent.transport).traits.usage;
  const backend = drivenName(adapters[agent.backend], agent);
  const estimable = priced && usage.tokens !== "none";
  return (Object.keys(LIMIT_FIGURES) as (keyof typeof LIMIT_FIGURES)[])
    .filter((key) => limits[key] !== undefined && usage[LIMIT_FIGURES[key]] === "none" && !(key === "maxCostUsd" && estimable))
    .map((key) => ({
      key,
      message:
        key === "maxCostUsd" && usage.tokens !== "none"
          ? `${backend} reports no cost and its model has no price (neither the config's prices: nor the catalog), so ${key} could never stop it`
          : `${backend} reports no ${LIMIT_FIGURES[key] === "cost" ? "cost" : LIMIT_FIGURES[key] === "turns" ? "turn count" : "token usage"} while it runs, so ${key} could never stop it`,
      fix:
        key === "maxCostUsd" && usage.tokens !== "none"
          ? "add the model to prices: in the config, or remove it"
          : "remove it; maxWallSec and stallSec work on every backend",
    }));
}

/** Whether a cost limit on this agent is held against an estimate: its CLI reports tokens but no cost. */
export function costIsEstimated(agent: Pick<AgentConfig, "backend" | "transport">): boolean {
  const usage = drivenFacts(adapters[agent.backend], agent.transport).traits.usage;
  return usage.cost === "none" && usage.tokens !== "none";
}

function checkNames(entry: AgentEntryFile, at: readonly PropertyKey[], path: PathFn, errors: string[]): void {
  const executable = typeof entry.command === "string" ? entry.command : entry.command?.[0];
  const command = placeholderProblem(executable, `the CLI's name or absolute path, or remove command: to use ${entry.backend} from PATH`);
  if (command) errors.push(errorLine(path([...at, "command"]), command.what, command.fix));
  const provider = placeholderProblem(entry.provider, `the provider id your ${entry.backend} CLI uses (e.g. anthropic, openai, google)`);
  if (provider) errors.push(errorLine(path([...at, "provider"]), provider.what, provider.fix));
  for (const name of Object.keys(entry.env ?? {})) {
    if (!ENV_NAME.test(name))
      errors.push(errorLine(path([...at, "env", name]), "not a valid environment variable name", "use letters, digits and _ only, not starting with a digit"));
    else if (RESERVED_ENV.test(name))
      errors.push(
        errorLine(path([...at, "env", name]), "orchestrate's own variables cannot be set per agent (the recursion guard depends on them)", "remove it"),
      );
  }
  (entry.capabilities ?? []).forEach((cap, i) => {
    if (!NAME.test(cap))
      errors.push(errorLine(path([...at, "capabilities", i]), `${JSON.stringify(cap)} is not a valid capability name`, "use letters, digits, _, . and - only"));
  });
}

/**
 * `transport: acp` only where the backend declares how it speaks ACP (a backend with no headless
 * mode always does); the ACP-only keys only with it; a command list only for an ACP launch; and
 * an agent known by config alone needs its launch command.
 */
function checkTransport(entry: AgentEntryFile, at: readonly PropertyKey[], path: PathFn, errors: string[]): "acp" | undefined {
  const adapter = adapters[entry.backend];
  const acp = adapter.acp !== undefined && (entry.transport === "acp" || adapter.acp.only === true);
  const speakers = BACKENDS.filter((b) => adapters[b].acp).join(", ");
  if (entry.transport === "acp" && !adapter.acp)
    errors.push(
      errorLine(
        path([...at, "transport"]),
        `${entry.backend} has no ACP profile (ACP backends: ${speakers})`,
        "remove transport, or use backend: acp with command: [the agent's ACP launch]",
      ),
    );
  if (entry.transport === "cli" && adapter.acp?.only)
    errors.push(errorLine(path([...at, "transport"]), `${entry.backend} agents are driven only over ACP`, "remove transport"));
  for (const key of ["modes", "permissions"] as const) {
    if (entry[key] !== undefined && !acp)
      errors.push(errorLine(path([...at, key]), `${key} is for agents driven over ACP`, `remove ${key}, or add transport: acp`));
  }
  if (Array.isArray(entry.command) && !acp)
    errors.push(
      errorLine(path([...at, "command"]), "a command with arguments is only for agents driven over ACP", "write the executable alone, or add transport: acp"),
    );
  if (acp && adapter.acp?.launch.length === 0 && entry.command === undefined)
    errors.push(
      errorLine(
        path([...at, "command"]),
        "missing: an agent known only by its ACP launch needs it",
        "add command: [executable, …arguments], e.g. [qwen, --acp]",
      ),
    );
  return acp ? "acp" : undefined;
}

/** Builds the resolved agent; pushes one line per broken rule and returns undefined if any. */
export function resolveAgent(id: string, entry: AgentEntryFile, at: readonly PropertyKey[], path: PathFn, errors: string[]): AgentConfig | undefined {
  const before = errors.length;
  const advisory = entry.advisory ?? DEFAULTS.advisory;
  onlyFor(entry, at, path, errors);
  checkModel(entry, advisory, at, path, errors);
  const { provider, aggregator } = checkProvider(entry, at, path, errors);
  checkNames(entry, at, path, errors);
  const transport = checkTransport(entry, at, path, errors);
  checkLimits(entry, transport, at, path, errors);
  if (errors.length > before) return undefined;
  const [command, ...commandArgs] = typeof entry.command === "string" ? [entry.command] : (entry.command ?? []);
  return {
    id,
    backend: entry.backend,
    ...(entry.model !== undefined ? { model: entry.model } : {}),
    provider,
    aggregator,
    ...(command !== undefined ? { command } : {}),
    ...(commandArgs.length > 0 ? { commandArgs } : {}),
    ...(transport ? { transport } : {}),
    ...(entry.modes !== undefined ? { modes: { ...entry.modes } } : {}),
    ...(entry.permissions !== undefined ? { permissions: entry.permissions } : {}),
    advisory,
    options: optionsOf(entry),
    capabilities: [...new Set(entry.capabilities ?? [])],
    scores: { ...(entry.scores ?? {}) },
    priority: entry.priority ?? DEFAULTS.priority,
    enabled: entry.enabled ?? DEFAULTS.enabled,
    env: { ...(entry.env ?? {}) },
    limits: { ...(entry.limits ?? {}) },
    ...(entry.executionModes !== undefined ? { executionModes: [...new Set(entry.executionModes)] } : {}),
  };
}
