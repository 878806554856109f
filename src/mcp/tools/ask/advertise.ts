/**
 * What tools/list says about ask, from the raw config file (config/presence.ts: read without
 * arktype, at most once per process): whether the group is offered at all, and the input schema
 * as this operator configured it — `capability` as the enum of configured names (seed 002: the
 * caller picks a capability and can never name a model), and each size bound at its configured
 * limit (response_schema's string arm advertises maxLength = the schema cap, as seed 002 does).
 * A value the config's own validation would refuse is advertised as the default, and a bound only
 * ever narrows the generated ceiling; the first call reports what is wrong with the file.
 */
import { ASK_DEFAULTS } from "../../../config/defaults.ts";
import { blockAt, type RawConfig } from "../../../config/presence.ts";

type Json = Record<string, unknown>;

/** The unified ask: block with a capability that has a deployment, or a seed 002 file's model_list. */
export function hasAskCapabilities(raw: RawConfig | undefined): boolean {
  // A seed 002 file is offered as soon as it lists a deployment, valid or not: the first call then says what is wrong.
  return isSeed002(raw) ? listOf(blockAt(raw, "model_list")).length > 0 : capabilityNames(raw).length > 0;
}

function isSeed002(raw: RawConfig | undefined): boolean {
  return Array.isArray(blockAt(raw, "model_list"));
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** Configured capability names: seed 002's declared ones that a model_list entry serves, or the ask: block's with deployments. */
function capabilityNames(raw: RawConfig | undefined): string[] {
  if (isSeed002(raw)) {
    const served = new Set(listOf(blockAt(raw, "model_list")).map((entry) => blockAt({ entry }, "entry", "model_name")));
    return keysOf(blockAt(raw, "capabilities")).filter((name) => served.has(name) && NAME.test(name));
  }
  return keysOf(blockAt(raw, "ask", "capabilities")).filter(
    (name) => NAME.test(name) && listOf(blockAt(raw, "ask", "capabilities", name, "deployments")).length > 0,
  );
}

/** The limits as the service will enforce them: configured (when sane), else the defaults. */
type SizeLimit = "maxPromptChars" | "maxSystemChars" | "maxContextChars" | "maxSchemaChars" | "maxOutputTokens";

function limitsOf(raw: RawConfig | undefined): Record<SizeLimit, number> {
  const seed002 = isSeed002(raw);
  const pick = (unified: SizeLimit, legacy: string): number => {
    const value = seed002 ? blockAt(raw, "limits", legacy) : blockAt(raw, "ask", "limits", unified);
    return typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= 2_000_000 ? value : ASK_DEFAULTS.limits[unified];
  };
  return {
    maxPromptChars: pick("maxPromptChars", "max_prompt_chars"),
    maxSystemChars: pick("maxSystemChars", "max_system_chars"),
    maxContextChars: pick("maxContextChars", "max_context_chars"),
    maxSchemaChars: pick("maxSchemaChars", "max_schema_chars"),
    maxOutputTokens: pick("maxOutputTokens", "max_output_tokens"),
  };
}

/** The generated input schema, narrowed to this config. Returns a new object; the generated one is shared. */
export function advertiseAsk(generated: Json, raw: RawConfig | undefined): Json {
  const input = structuredClone(generated);
  const props = objectAt(input, "properties");
  if (!props) return input;
  const names = capabilityNames(raw);
  const capability = objectAt(props, "capability");
  if (capability && names.length > 0) capability.enum = names;
  const limits = limitsOf(raw);
  setBound(objectAt(props, "prompt"), "maxLength", limits.maxPromptChars);
  setBound(objectAt(props, "system"), "maxLength", limits.maxSystemChars);
  setBound(objectAt(props, "context"), "maxLength", limits.maxContextChars);
  setBound(objectAt(props, "max_output_tokens"), "maximum", limits.maxOutputTokens);
  const arms = objectAt(props, "response_schema")?.anyOf;
  const stringArm = Array.isArray(arms) ? arms.find((arm): arm is Json => isObject(arm) && arm.type === "string") : undefined;
  setBound(stringArm, "maxLength", limits.maxSchemaChars);
  return input;
}

/** Only ever narrows: a configured limit above the generated ceiling cannot widen what arktype accepts. */
function setBound(schema: Json | undefined, key: "maxLength" | "maximum", value: number): void {
  if (!schema) return;
  const ceiling = schema[key];
  schema[key] = typeof ceiling === "number" ? Math.min(ceiling, value) : value;
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function objectAt(obj: Json, key: string): Json | undefined {
  const value = obj[key];
  return isObject(value) ? value : undefined;
}

function keysOf(value: unknown): string[] {
  return isObject(value) ? Object.keys(value) : [];
}

function listOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
