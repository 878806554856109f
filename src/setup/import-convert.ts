/**
 * `orchestrate import FILE`: an mcp-router `config.json` or an Orchestrator `config.yaml` → the
 * unified format. The loader already understands both shapes; this turns its unified view into
 * the text that would be written, validated and diffed like every other proposal.
 */
import { readFileSync, statSync } from "node:fs";
import { fail, ok, type Result } from "../result.ts";
import { formatOf, parseConfigText } from "../config/parse.ts";
import type { Env } from "../config/paths.ts";
import { prepareProposal, type Proposal } from "./proposal.ts";

export interface Imported {
  from: "mcp-router" | "orchestrator" | "orchestrator-mcp" | "unified";
  proposal: Proposal;
  /** Keys of the old file that orchestrate accepts but does not act on. */
  ignored: string[];
}

const MAX_BYTES = 1024 * 1024;

/** The person names the file and confirms the result, so a plain read is enough here. */
function readSource(file: string): Result<string, "config_absent" | "config_invalid"> {
  try {
    if (statSync(file).size > MAX_BYTES) return fail("config_invalid", `${file} is larger than a config can be`);
    return ok(readFileSync(file, "utf8"));
  } catch (error) {
    return fail("config_absent", `cannot read ${file}: ${(error as Error).message}`, "check the path");
  }
}

export async function convertFile(file: string, target: string, env: Env): Promise<Result<Imported>> {
  const text = readSource(file);
  if (!text.ok) return text;
  const format = formatOf(file, text.value);
  const parsed = parseConfigText(text.value, format, file);
  if (!parsed.ok) return fail("config_invalid", parsed.errors.join("\n"), "fix the file, then import again");
  const { validateConfigObject } = await import("../config/validate.ts");
  const validated = validateConfigObject(parsed.value, { path: file, format }, env);
  if (!validated.ok) return fail("config_invalid", `${file} does not convert:\n${validated.errors.join("\n")}`, "fix each line above, then import again");
  const proposal = await prepareProposal(validated.value.unified as Record<string, unknown>, target, env);
  if (!proposal.ok) return proposal;
  return ok({ from: validated.value.config.source.legacy ?? "unified", proposal: proposal.value, ignored: validated.value.ignored });
}
