/**
 * Everything a service call needs, built once per process on the first tool call (not at startup:
 * loading the config imports arktype, which would double the time to the first tools/list).
 */
import type { Adapter } from "../../backends/contract.ts";
import type { Backend } from "../../backends/index.ts";
import { adapters } from "../../backends/index.ts";
import type { Config } from "../../config/types.ts";
import { loadConfig } from "../../config/load.ts";
import { openStore, type Store } from "../../store/db.ts";
import { defaultStorePath } from "../../store/paths.ts";
import { chooseStorePath } from "../../store/ownership.ts";
import { log } from "../../log.ts";
import { resolveRoots } from "../../safety/roots.ts";
import type { Failure, Result } from "../../result.ts";
import { processStartedAt, reconcileOrphans } from "./jobs.ts";
import { recordGroupsIn } from "../../process/group-records.ts";
import { dirname, join } from "node:path";
import { forgetAtServerEnd } from "../../lifetime.ts";

export interface Runtime {
  env: Record<string, string | undefined>;
  config: Config;
  store: Store;
  adapters: Record<Backend, Adapter>;
  roots: string[];
  now: () => number;
  /** The MCP client's name from initialize, when known (host runtime detection). */
  clientName?: string;
}

let cached: Promise<Result<Runtime>> | undefined;

// The store stays open for the server's life; its end closes it and the next call builds afresh.
forgetAtServerEnd(async () => {
  const rt = await cached;
  cached = undefined;
  if (rt?.ok) rt.value.store.close();
});

/** The server's runtime. The first creation also reconciles jobs a dead server left `running`. */
export function getRuntime(env: Record<string, string | undefined>): Promise<Result<Runtime>> {
  cached ??= createRuntime(env).then((rt) => {
    if (rt.ok) reconcileOrphans(rt.value);
    return rt;
  });
  return cached;
}

export async function createRuntime(env: Record<string, string | undefined>, configPath?: string): Promise<Result<Runtime>> {
  const config = await loadConfig({ env, ...(configPath ? { path: configPath } : {}) });
  if (!config.ok) return config;
  const choice = chooseStorePath(config.value.store.path, defaultStorePath(env));
  if (choice.notice) log.warn(choice.notice);
  const store = openStore(choice.path, { fullContent: config.value.store.fullContent });
  if (!store.ok) return store;
  // Beside the store: the next server, on this store, ends a group this one left behind.
  recordGroupsIn(join(dirname(choice.path), "groups"), processStartedAt);
  const roots = resolveRoots(env, config.value);
  return { ok: true, value: { env, config: config.value, store: store.value, adapters, roots, now: Date.now } };
}

export function runtimeFailure(error: Failure): Failure {
  return { ...error, hint: error.hint ?? "Run `orchestrate check` in a terminal to see what is wrong." };
}
