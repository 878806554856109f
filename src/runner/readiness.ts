/**
 * One readiness bit per CLI, from its own status command, without reading any credential. Cached
 * briefly per command path, because list_agents, the doctor and every route pre-flight ask.
 */
import type { Adapter, ProbeOutput, ProbeSpec, Readiness } from "../backends/contract.ts";
import { capture } from "../process/capture.ts";
import { forgetAtServerEnd } from "../lifetime.ts";

const TTL_MS = 30_000;
const cache = new Map<string, { at: number; value: Readiness }>();
forgetAtServerEnd(() => cache.clear());

export interface ReadinessOptions {
  /** The installed variant's probes, when they differ from the adapter's (pi 1.x has `auth check`). */
  probes?: ProbeSpec;
  now?: number;
  /** Ask the CLI again even if a recent answer is cached (an auth cooldown re-checked: services/shared/cooling.ts). */
  fresh?: boolean;
}

export async function readinessOf(
  adapter: Adapter,
  commandPath: string,
  env: Record<string, string | undefined>,
  opts: ReadinessOptions = {},
): Promise<Readiness> {
  const spec = opts.probes ?? adapter.probes;
  const argv = spec.auth;
  if (!argv) return "unknown";
  const now = opts.now ?? Date.now();
  // The agent's own env (e.g. its CODEX_HOME) can change the answer, so it is part of the key.
  const key = `${adapter.backend}\0${commandPath}\0${argv.join("\0")}\0${envKey(env)}`;
  const hit = cache.get(key);
  if (hit && now - hit.at < TTL_MS && !opts.fresh) return hit.value;
  const out = await probe(commandPath, argv, { ...env, ...spec.env });
  const value = out ? interpretReadiness(adapter, out, env) : "unknown";
  cache.set(key, { at: now, value });
  return value;
}

/** The adapter's reading of a probe, or the default: exit 0 means ready. */
export function interpretReadiness(adapter: Adapter, out: ProbeOutput, env: Record<string, string | undefined>): Readiness {
  if (adapter.readiness) return adapter.readiness(out, env);
  return out.exitCode === 0 ? "ready" : "not_ready";
}

async function probe(command: string, args: string[], env: Record<string, string | undefined>): Promise<ProbeOutput | undefined> {
  const out = await capture(command, args, env);
  return out.problem ? undefined : { exitCode: out.exitCode, stdout: out.stdout, stderr: out.stderr };
}

/** Only the variables a CLI's sign-in can depend on; never logged, only compared. */
function envKey(env: Record<string, string | undefined>): string {
  return Object.keys(env)
    .filter((k) => /HOME|CONFIG|API_KEY|TOKEN|^FAKE_/.test(k))
    .sort()
    .map((k) => `${k}=${env[k] ?? ""}`)
    .join("\n");
}
