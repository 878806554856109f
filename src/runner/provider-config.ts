/**
 * The model provider a CLI's own config selects, for backends whose retry caps are keys of that
 * provider (codex: `model_providers.<id>.stream_max_retries`, custom providers only). The backend
 * says which files name it; this module reads them, best effort — an unreadable or unparsable file
 * names nothing, and the run goes on without the cap.
 */
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import type { Adapter, Env, ProviderConfigFile, RunMode, RunRequest } from "../backends/contract.ts";
import { stripJsonComments } from "./mcp-isolation.ts";

export function providerConfig(adapter: Adapter, env: Env, cwd: string | undefined, mode: RunMode): Pick<RunRequest, "configuredProvider"> {
  const files = adapter.providerConfigFiles?.({ env, home: env.HOME ?? homedir(), ...(cwd ? { cwd } : {}), mode }) ?? [];
  for (const file of files) {
    const provider = providerIn(file);
    if (provider) return { configuredProvider: provider };
  }
  return {};
}

function providerIn(file: ProviderConfigFile): string | undefined {
  let text: string;
  try {
    text = readFileSync(file.path, "utf8");
  } catch {
    return undefined;
  }
  try {
    const parsed: unknown = file.format === "toml" ? Bun.TOML.parse(text) : JSON.parse(stripJsonComments(text));
    const value = typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>)[file.key] : undefined;
    return typeof value === "string" && value !== "" ? value : undefined;
  } catch {
    return undefined;
  }
}
