/**
 * Which build of a CLI is installed, for backends whose one name covers programs or release lines
 * that must be driven differently (grok: community vs Grok Build; pi: 0.73 vs 1.x; agy: builds
 * too old to drive). Read once per binary (path + mtime, so an upgrade is noticed) with the
 * backend's own probe; the backend names the variant, this module only runs the probe.
 */
import { statSync } from "node:fs";
import type { Adapter, Env, VariantTraits } from "../backends/contract.ts";
import { capture, type Captured, type CaptureOptions } from "../process/capture.ts";
import { forgetAtServerEnd } from "../lifetime.ts";

/** Runs one probe of the binary; the doctor passes one that shares identical probes between checks. */
export type Prober = (args: string[], opts?: CaptureOptions) => Promise<Captured>;

const PROBE_TIMEOUT_MS = 10_000;
const variants = new Map<string, Promise<string>>();
forgetAtServerEnd(() => variants.clear());

/** undefined for backends without variants. */
export async function variantOf(
  adapter: Adapter,
  commandPath: string,
  env: Env,
  run: Prober = (args, opts) => capture(commandPath, args, env, opts),
): Promise<string | undefined> {
  const probe = adapter.variant;
  if (!probe) return undefined;
  const key = `${adapter.backend}\0${commandPath}\0${statSync(commandPath, { throwIfNoEntry: false })?.mtimeMs ?? 0}`;
  let found = variants.get(key);
  if (!found) {
    found = run(probe.argv, { timeoutMs: PROBE_TIMEOUT_MS }).then((out) =>
      probe.read(out.problem ? { exitCode: null, stdout: "", stderr: "" } : { exitCode: out.exitCode, stdout: out.stdout, stderr: out.stderr }),
    );
    variants.set(key, found);
  }
  return found;
}

/** What the installed variant can do, falling back to the adapter's own facts. */
export function variantTraits(adapter: Adapter, variant: string | undefined): VariantTraits & Required<Pick<VariantTraits, "supportsResume" | "probes">> {
  const traits = variant !== undefined && adapter.variant ? adapter.variant.traits(variant) : {};
  return { ...traits, supportsResume: traits.supportsResume ?? adapter.supportsResume, probes: traits.probes ?? adapter.probes };
}
