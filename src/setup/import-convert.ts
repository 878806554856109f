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
import { routerRegistrations, type RouterRegistration } from "./client-registration.ts";

export interface Imported {
  from: "mcp-router" | "orchestrator" | "orchestrator-mcp" | "unified";
  proposal: Proposal;
  /** Keys of the old file that orchestrate accepts but does not act on. */
  ignored: string[];
  /** Set when FILE was a client config whose `npx mcp-orchestrate` registration led here. */
  via?: RouterRegistration;
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
  const found = routerRegistrations(text.value, file, env);
  if (found.length > 0) return viaRegistration(found, target, env);
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

/** A client config registering mcp-router: convert the router config it reads, saying so. */
async function viaRegistration(found: RouterRegistration[], target: string, env: Env): Promise<Result<Imported>> {
  const files = [...new Set(found.map((r) => r.routerConfig))];
  if (files.length > 1) {
    const list = found.map((r) => `${r.server} → ${r.routerConfig}`).join(", ");
    return fail(
      "config_invalid",
      `this client config registers mcp-orchestrate ${found.length} times with different router configs (${list})`,
      "import each router config file by name",
    );
  }
  const via = found[0] as RouterRegistration;
  const converted = await convertFile(via.routerConfig, target, env);
  return converted.ok ? ok({ ...converted.value, via }) : converted;
}
