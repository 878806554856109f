/**
 * What a CLI's own config says about model providers, read where the backend says: the provider it
 * selects, for backends whose retry caps are keys of that provider (codex:
 * `model_providers.<id>.stream_max_retries`, custom providers only), and the person's provider
 * definitions, for backends whose answer mode isolates the config home yet must still reach a
 * provider declared only there (opencode's `provider` table). Best effort: an unreadable or
 * unparsable file says nothing, and the run goes on without it.
 */
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import type { Adapter, Env, ProviderConfigFile, RunMode, RunRequest } from "../backends/contract.ts";
import { asObject } from "../backends/events.ts";
import { stripJsonComments } from "./mcp-isolation.ts";

export function providerConfig(
  adapter: Adapter,
  env: Env,
  cwd: string | undefined,
  mode: RunMode,
): Pick<RunRequest, "configuredProvider" | "providerDefinitions"> {
  const files = adapter.providerConfigFiles?.({ env, home: env.HOME ?? homedir(), ...(cwd ? { cwd } : {}), mode }) ?? [];
  const out: Pick<RunRequest, "configuredProvider" | "providerDefinitions"> = {};
  // The first file that sets a key wins, per kind.
  for (const file of files) {
    const value = valueIn(file);
    if (file.holds === "definitions") {
      const table = asObject(value);
      if (table && !out.providerDefinitions) out.providerDefinitions = table;
    } else if (typeof value === "string" && value !== "" && !out.configuredProvider) out.configuredProvider = value;
  }
  return out;
}

function valueIn(file: ProviderConfigFile): unknown {
  let text: string;
  try {
    text = readFileSync(file.path, "utf8");
  } catch {
    return undefined;
  }
  try {
    const parsed: unknown = file.format === "toml" ? Bun.TOML.parse(text) : JSON.parse(stripJsonComments(text));
    return asObject(parsed)?.[file.key];
  } catch {
    return undefined;
  }
}
