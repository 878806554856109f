/**
 * The opt-in init tools' logic (init_status, init_preview, init_apply). Config is the trust
 * boundary, so a model may only ever look and propose: preview writes nothing, apply writes only
 * `<config>.pending`, and promotion needs a human at a terminal (`orchestrate accept-pending`).
 */
import { lstatSync } from "node:fs";
import type { Backend } from "../backends/index.ts";
import { loadConfig } from "../config/load.ts";
import type { Env } from "../config/paths.ts";
import { TIERS, type Tier } from "../config/types.ts";
import { fail, ok, type Result } from "../result.ts";
import { detectBackends } from "../doctor/detect.ts";
import { discoverModels } from "./models.ts";
import { pendingPath, stagePending } from "./pending.ts";
import { prepareProposal, type Proposal } from "./proposal.ts";
import { targetConfigPath } from "./target.ts";

const MAX_SPEC_CHARS = 256 * 1024;

export interface InitStatus {
  config: { exists: boolean; valid: boolean; pendingExists: boolean };
  backends: {
    backend: Backend;
    installed: boolean;
    version?: string;
    compatible: boolean;
    missingFlags: string[];
    readiness: "ready" | "not_ready" | "unknown";
  }[];
  models: Partial<Record<Backend, string[]>>;
  tiers: Record<Tier, boolean>;
  capabilities: string[];
}

const exists = (path: string) => lstatSync(path, { throwIfNoEntry: false }) !== undefined;

export async function initStatus(env: Env): Promise<InitStatus> {
  const path = targetConfigPath(env);
  const probes = await detectBackends({ env });
  const models: Partial<Record<Backend, string[]>> = {};
  await Promise.all(
    probes
      .filter((p) => p.path)
      .map(async (p) => {
        models[p.backend] = await discoverModels({
          backend: p.backend,
          path: p.path as string,
          env,
          ...(p.variant !== undefined ? { variant: p.variant } : {}),
        });
      }),
  );
  const loaded = await loadConfig({ env });
  const config = loaded.ok ? loaded.value : undefined;
  return {
    config: { exists: exists(path), valid: loaded.ok, pendingExists: exists(pendingPath(path)) },
    backends: probes.map((p) => ({
      backend: p.backend,
      installed: Boolean(p.path),
      ...(p.version ? { version: p.version } : {}),
      compatible: Boolean(p.path) && p.missingFlags.length === 0,
      missingFlags: p.missingFlags.map((m) => m.flag),
      readiness: p.readiness,
    })),
    models,
    tiers: Object.fromEntries(TIERS.map((t) => [t, Boolean(config?.tiers[t]?.length)])) as Record<Tier, boolean>,
    capabilities: config ? Object.keys(config.capabilitySlots) : [],
  };
}

/** Validated through the same parse + validate the server runs on the file; writes nothing. */
export async function initPreview(spec: Record<string, unknown>, env: Env): Promise<Result<Proposal>> {
  if (JSON.stringify(spec).length > MAX_SPEC_CHARS)
    return fail("spec_too_large", `the spec is larger than ${MAX_SPEC_CHARS} characters`, "send only the config keys");
  return prepareProposal(spec, targetConfigPath(env), env);
}

/** Stages `<config>.pending` (0600, atomic). The live file is never opened for writing. */
export async function initApply(spec: Record<string, unknown>, env: Env): Promise<Result<{ proposal: Proposal; staged: string }>> {
  const proposal = await initPreview(spec, env);
  if (!proposal.ok) return proposal;
  const staged = stagePending(proposal.value.path, proposal.value.text);
  if (!staged.ok) return staged;
  return ok({ proposal: proposal.value, staged: staged.value });
}
