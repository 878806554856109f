/**
 * A proposed config (from the wizard, `init_preview`/`init_apply` or `import`) → the exact text
 * that would be written, validated by parsing that text back through the loader's own parse and
 * validate steps — so what is previewed is what the server will load — plus the diff and risks.
 */
import { lstatSync, readFileSync } from "node:fs";
import { fail, ok, type Result } from "../result.ts";
import { renderYaml } from "../config/write.ts";
import { formatOf, parseConfigText } from "../config/parse.ts";
import type { Env } from "../config/paths.ts";
import type { Config } from "../config/types.ts";
import { lineDiff } from "./diff.ts";
import { maskConfigText } from "./mask.ts";
import type { BackendProbe } from "../doctor/detect.ts";
import { computeRisks, type Risk } from "./risks.ts";

export interface Proposal {
  path: string;
  text: string;
  config: Config;
  diff: string;
  /** The diff with env values and credentials masked on both sides: what an MCP client is shown (setup/mask.ts). */
  maskedDiff: string;
  risks: Risk[];
}

const HEADER = "# orchestrate config — written by orchestrate. Check it with: orchestrate check\n";

/** Text in the target's format: JSON for a `.json` path, YAML otherwise. */
export function renderConfig(spec: Record<string, unknown>, path: string): string {
  if (/\.json$/i.test(path)) return `${JSON.stringify(spec, null, 2)}\n`;
  return `${HEADER}${renderYaml(spec)}`;
}

/** The current file's text for the diff; a missing or non-regular file counts as empty. */
export function currentText(path: string): string {
  try {
    if (!lstatSync(path).isFile()) return "";
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

/** Validates text exactly as the loader would read it from `path`. */
export async function validateText(text: string, path: string, env: Env): Promise<Result<Config, "config_invalid">> {
  const format = formatOf(path, text);
  const parsed = parseConfigText(text, format, path);
  if (!parsed.ok)
    return fail("config_invalid", parsed.errors.join("\n"), parsed.errors.length > 1 ? "fix each line above" : "fix it as shown above", {
      errors: parsed.errors,
    });
  const { validateConfigObject } = await import("../config/validate.ts");
  const validated = validateConfigObject(parsed.value, { path, format }, env);
  if (!validated.ok)
    return fail("config_invalid", validated.errors.join("\n"), validated.errors.length > 1 ? "fix each line above" : "fix it as shown above", {
      errors: validated.errors,
    });
  return ok(validated.value.config);
}

/** `probes`: what the wizard detected, so agents whose CLI cannot run are named among the risks. */
export async function prepareText(text: string, path: string, env: Env, probes?: readonly BackendProbe[]): Promise<Result<Proposal, "config_invalid">> {
  const config = await validateText(text, path, env);
  if (!config.ok) return config;
  const current = currentText(path);
  const labels = { before: `${path} (current)`, after: `${path} (proposed)` };
  const diff = lineDiff(current, text, labels);
  const maskedDiff = lineDiff(maskConfigText(current), maskConfigText(text), labels);
  return ok({
    path,
    text,
    config: config.value,
    diff,
    maskedDiff,
    risks: computeRisks(config.value, { targetPath: path, env, ...(probes ? { probes } : {}) }),
  });
}

export function prepareProposal(
  spec: Record<string, unknown>,
  path: string,
  env: Env,
  probes?: readonly BackendProbe[],
): Promise<Result<Proposal, "config_invalid">> {
  return prepareText(renderConfig(spec, path), path, env, probes);
}
