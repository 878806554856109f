/**
 * The one hardened config load path (docs/config-discovery.md), shared by the server, `check` and `accept-pending`.
 * Top level imports nothing heavy: arktype arrives with validate.ts, imported only when a file
 * exists and has to be validated.
 */
import { resolve } from "node:path";
import { log } from "../log.ts";
import { fail, ok, type Result } from "../result.ts";
import { zeroConfig } from "./defaults.ts";
import { formatOf, parseConfigText } from "./parse.ts";
import { expandHome, resolveConfigPath, type ConfigLocation, type Env } from "./paths.ts";
import { readSecureFile } from "./secure-read.ts";
import type { Config } from "./types.ts";
import type { Validated } from "./validate.ts";
import { managedSourceFor, mergeManaged, mergeSeedManaged, readManaged } from "./managed.ts";

export type ConfigErrorCode = "config_absent" | "config_insecure" | "config_invalid";

export interface LoadOptions {
  /** An explicit path (`check PATH`): a missing file is then an error, not zero-config. */
  path?: string;
  env?: Env;
}

function locate(opts: LoadOptions, env: Env): ConfigLocation {
  if (opts.path === undefined) return resolveConfigPath(env);
  return { path: resolve(expandHome(opts.path, env)), origin: "argument", exists: true, explicit: true };
}

/**
 * Reads, checks and validates one file; `Validated` keeps the unified shape for import/init.
 * `withManaged`: merge the dashboard's managed file (managed.ts) first — the server's view, never
 * what import or init write back.
 */
export async function loadConfigFile(path: string, env: Env, opts: { withManaged?: boolean } = {}): Promise<Result<Validated, ConfigErrorCode>> {
  const read = readSecureFile(path);
  if (!read.ok) return read;
  const format = formatOf(path, read.value);
  const parsed = parseConfigText(read.value, format, path);
  const invalid = (errors: string[]) =>
    fail(
      "config_invalid",
      `${path} is not a valid config:\n${errors.join("\n")}`,
      `${errors.length > 1 ? "fix each line above" : "fix it as shown above"}, then run orchestrate check ${path}`,
      { errors },
    );
  if (!parsed.ok) return invalid(parsed.errors);
  let raw = parsed.value;
  if (opts.withManaged) {
    const { path: managedPath, seed } = managedSourceFor(path, raw, env);
    const managed = readManaged(managedPath);
    if (!managed.ok) return "refusal" in managed ? managed.refusal : invalid(managed.errors);
    const merged = (seed ? mergeSeedManaged : mergeManaged)(raw, managed.value, managedPath);
    if (!merged.ok) return invalid(merged.errors);
    raw = merged.value;
  }
  const { validateConfigObject } = await import("./validate.ts");
  const validated = validateConfigObject(raw, { path, format }, env);
  if (!validated.ok) return invalid(validated.errors);
  return ok(validated.value);
}

/**
 * Finds and loads the config. No file anywhere (and none named) → the zero config: it runs, but
 * every tier is unconfigured, because a model is never invented.
 */
export async function loadConfig(opts: LoadOptions = {}): Promise<Result<Config, ConfigErrorCode>> {
  const env = opts.env ?? process.env;
  const location = locate(opts, env);
  if (location.notice) log.warn(location.notice);
  if (!location.exists && !location.explicit) return ok(zeroConfig());
  const loaded = await loadConfigFile(location.path, env, { withManaged: true });
  if (!loaded.ok) return loaded;
  for (const key of loaded.value.ignored) log.warn(`${location.path}: ${key} is accepted but has no effect in orchestrate`);
  return ok(loaded.value.config);
}
