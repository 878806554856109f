/**
 * Parsed config data → resolved Config. This is the part that needs arktype, so the loader
 * imports this module dynamically and the server's startup never pays for the schema library.
 */
import { errorLine } from "./format-errors.ts";
import { convertAskRouter } from "./ask/legacy.ts";
import { convertOrchestrator, detectLegacy, isPlainObject, orchestratorPath, type LegacyFormat } from "./legacy.ts";
import type { FileFormat } from "./parse.ts";
import type { Env } from "./paths.ts";
import { resolveUnified } from "./resolve.ts";
import { checkAskRouter, checkOrchestrator, checkUnified, type Checked, type UnifiedFile } from "./schema.ts";
import type { Config } from "./types.ts";

export interface Validated {
  config: Config;
  /** The same settings in the unified file shape (what `orchestrate import` writes). */
  unified: UnifiedFile;
  /** Keys of a legacy file that were accepted but have no effect in orchestrate. */
  ignored: string[];
}

export interface SourceInfo {
  path?: string;
  format: FileFormat;
}

function fromOrchestrator(raw: unknown, source: SourceInfo, env: Env): Checked<Validated> {
  const checked = checkOrchestrator(raw);
  if (!checked.ok) return checked;
  const converted = convertOrchestrator(checked.value, env);
  const resolved = resolveUnified(converted.file, { source: { ...source, legacy: "orchestrator" }, env, path: orchestratorPath });
  const errors = [...converted.errors, ...(resolved.ok ? [] : resolved.errors)];
  if (errors.length > 0 || !resolved.ok) return { ok: false, errors };
  return { ok: true, value: { config: resolved.value, unified: converted.file, ignored: converted.ignored } };
}

/** Seed 002's config.yaml, as written (legacy-ask.ts). */
function fromAskRouter(raw: unknown, source: SourceInfo, env: Env): Checked<Validated> {
  const checked = checkAskRouter(raw);
  if (!checked.ok) return checked;
  const converted = convertAskRouter(checked.value, env);
  const resolved = resolveUnified(converted.file, { source: { ...source, legacy: "orchestrator-mcp" }, env, path: converted.path });
  const errors = [...converted.errors, ...(resolved.ok ? [] : resolved.errors)];
  if (errors.length > 0 || !resolved.ok) return { ok: false, errors };
  return { ok: true, value: { config: resolved.value, unified: converted.file, ignored: converted.ignored } };
}

function fromUnified(raw: unknown, source: SourceInfo, env: Env, legacy: LegacyFormat | undefined): Checked<Validated> {
  const checked = checkUnified(raw);
  if (!checked.ok) return checked;
  const resolved = resolveUnified(checked.value, { source: { ...source, ...(legacy ? { legacy } : {}) }, env });
  if (!resolved.ok) return resolved;
  return { ok: true, value: { config: resolved.value, unified: checked.value, ignored: [] } };
}

/** Validates any of the three accepted shapes; every error is one `path: what (fix)` line. */
export function validateConfigObject(raw: unknown, source: SourceInfo, env: Env): Checked<Validated> {
  if (!isPlainObject(raw)) {
    const was = Array.isArray(raw) ? "a list" : typeof raw;
    return { ok: false, errors: [errorLine("", `the file must hold a mapping of settings, was ${was}`, "start from config.example.yaml")] };
  }
  const legacy = detectLegacy(raw, source.format);
  if (legacy === "orchestrator") return fromOrchestrator(raw, source, env);
  if (legacy === "orchestrator-mcp") return fromAskRouter(raw, source, env);
  return fromUnified(raw, source, env, legacy);
}
