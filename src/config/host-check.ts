/**
 * The config's host.runtime is an assertion about the environment (seed 001: "naming it under host:
 * is an assertion, and a mismatch refuses the boot"). Read from the raw file, so the server can
 * refuse before it answers anything, without loading the schema library; `check` reports the same.
 */
import { blockAt, type RawConfig } from "./presence.ts";

type Env = Record<string, string | undefined>;

/** Orchestrator MCP's experimental `antigravity` runtime is orchestrate's agy. */
const normal = (runtime: string): string => (runtime === "antigravity" ? "agy" : runtime);

/** Why the config and the environment disagree on the host runtime, or undefined when they do not. */
export function hostMismatch(raw: RawConfig | undefined, env: Env): string | undefined {
  const configured = blockAt(raw, "host", "runtime") ?? blockAt(raw, "consult", "host", "runtime");
  const name = env.ORCHESTRATE_HOST_RUNTIME ? "ORCHESTRATE_HOST_RUNTIME" : env.ORCHESTRATOR_HOST_RUNTIME ? "ORCHESTRATOR_HOST_RUNTIME" : undefined;
  const actual = name ? env[name] : undefined;
  if (typeof configured !== "string" || !name || !actual || normal(configured) === normal(actual)) return undefined;
  return `the config's host.runtime is ${configured} but ${name} is ${actual}: one of them is wrong, and consulting the host's own runtime must never happen by accident. Make them agree (or remove host.runtime).`;
}
