/**
 * One agent entry (named under `agents:` or inline in a tier/slot) → AgentConfig, applying the
 * rules that tie fields together. Every broken rule is one error line on the offending key.
 */
import type { Backend } from "../adapters/types.ts";
import { DEFAULTS } from "./defaults.ts";
import { errorLine } from "./format-errors.ts";
import { deriveProvider } from "./providers.ts";
import type { AgentEntryFile } from "./schema.ts";
import type { AgentConfig } from "./types.ts";

export type PathFn = (parts: readonly PropertyKey[]) => string;

const ADVISORY_BACKENDS: readonly Backend[] = ["codex", "claude"];
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
export const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
/** Variables the recursion guard and the config lookup depend on: an agent may not override them. */
const RESERVED_ENV = /^(ORCHESTRATE_|MCP_ROUTER_|ORCHESTRATOR_)/;

function onlyFor(entry: AgentEntryFile, at: readonly PropertyKey[], path: PathFn, errors: string[]): void {
  const rules: [keyof AgentEntryFile, Backend, string][] = [
    ["sandbox", "codex", "claude has permissionMode; other backends have no such switch"],
    ["permissionMode", "claude", "codex has sandbox; other backends have no such switch"],
    ["allowedTools", "claude", "only claude takes a tool allowlist"],
  ];
  for (const [key, backend, note] of rules) {
    if (entry[key] === undefined || entry.backend === backend) continue;
    errors.push(errorLine(path([...at, key]), `${key} is ${backend}-only, this entry's backend is ${entry.backend}`, `remove ${key}; ${note}`));
  }
}

function checkModel(entry: AgentEntryFile, advisory: boolean, at: readonly PropertyKey[], path: PathFn, errors: string[]): void {
  if (advisory && !ADVISORY_BACKENDS.includes(entry.backend)) {
    errors.push(errorLine(path([...at, "advisory"]), `advisory is only for codex and claude, this entry's backend is ${entry.backend}`, "remove advisory"));
  }
  if (entry.model === undefined && !advisory) {
    const example = entry.backend === "opencode" ? "<provider>/<model>" : "<model>";
    errors.push(errorLine(path([...at, "model"]), "missing: orchestrate never picks a model for you", `add model: ${example}, as your ${entry.backend} CLI names it`));
    return;
  }
  if (entry.backend === "opencode" && entry.model !== undefined && deriveProvider("opencode", entry.model) === undefined) {
    errors.push(errorLine(path([...at, "model"]), `opencode models are written <provider>/<model>, was ${JSON.stringify(entry.model)}`, "prefix the model with its provider, as `opencode models` lists it"));
  }
}

function checkProvider(entry: AgentEntryFile, at: readonly PropertyKey[], path: PathFn, errors: string[]): { provider: string; aggregator: boolean } {
  const derived = deriveProvider(entry.backend, entry.model) ?? { provider: "unknown", aggregator: false };
  if (entry.provider !== undefined && entry.provider !== derived.provider && derived.provider !== "unknown") {
    const why = entry.backend === "opencode" ? `the model prefix says ${JSON.stringify(derived.provider)}` : `backend ${entry.backend} always uses ${JSON.stringify(derived.provider)}`;
    errors.push(errorLine(path([...at, "provider"]), `declared ${JSON.stringify(entry.provider)} but ${why}`, `remove provider, it is derived; or set it to ${JSON.stringify(derived.provider)}`));
  }
  return derived;
}

function checkNames(entry: AgentEntryFile, at: readonly PropertyKey[], path: PathFn, errors: string[]): void {
  for (const name of Object.keys(entry.env ?? {})) {
    if (!ENV_NAME.test(name)) errors.push(errorLine(path([...at, "env", name]), "not a valid environment variable name", "use letters, digits and _ only, not starting with a digit"));
    else if (RESERVED_ENV.test(name)) errors.push(errorLine(path([...at, "env", name]), "orchestrate's own variables cannot be set per agent (the recursion guard depends on them)", "remove it"));
  }
  (entry.capabilities ?? []).forEach((cap, i) => {
    if (!NAME.test(cap)) errors.push(errorLine(path([...at, "capabilities", i]), `${JSON.stringify(cap)} is not a valid capability name`, "use letters, digits, _, . and - only"));
  });
}

/** Builds the resolved agent; pushes one line per broken rule and returns undefined if any. */
export function resolveAgent(id: string, entry: AgentEntryFile, at: readonly PropertyKey[], path: PathFn, errors: string[]): AgentConfig | undefined {
  const before = errors.length;
  const advisory = entry.advisory ?? DEFAULTS.advisory;
  onlyFor(entry, at, path, errors);
  checkModel(entry, advisory, at, path, errors);
  const { provider, aggregator } = checkProvider(entry, at, path, errors);
  checkNames(entry, at, path, errors);
  if (errors.length > before) return undefined;
  return {
    id,
    backend: entry.backend,
    ...(entry.model !== undefined ? { model: entry.model } : {}),
    provider,
    aggregator,
    ...(entry.command !== undefined ? { command: entry.command } : {}),
    advisory,
    ...(entry.sandbox !== undefined ? { sandbox: entry.sandbox } : {}),
    ...(entry.permissionMode !== undefined ? { permissionMode: entry.permissionMode } : {}),
    ...(entry.allowedTools !== undefined ? { allowedTools: [...entry.allowedTools] } : {}),
    capabilities: [...new Set(entry.capabilities ?? [])],
    scores: { ...(entry.scores ?? {}) },
    priority: entry.priority ?? DEFAULTS.priority,
    enabled: entry.enabled ?? DEFAULTS.enabled,
    env: { ...(entry.env ?? {}) },
    limits: { ...(entry.limits ?? {}) },
  };
}
