/**
 * Model discovery, best effort and untrusted: only what a CLI itself lists (each backend says
 * how). Nothing here is ever a default — the person confirms every pick, and a backend that lists
 * nothing gets a typed id.
 */
import { adapters, type Backend } from "../backends/index.ts";
import { capture, plain } from "../process/capture.ts";

/** Ids are shown in prompts and written to the config: keep only plausible, bounded ones. */
const MODEL_ID = /^[A-Za-z0-9][\w.:@/+-]{0,127}$/;
const MAX_MODELS = 200;

export interface ModelQuery {
  backend: Backend;
  path: string;
  env: Record<string, string | undefined>;
  variant?: string;
}

export async function discoverModels(q: ModelQuery): Promise<string[]> {
  const lister = adapters[q.backend].models;
  const args = lister?.argv(q.variant);
  if (!lister || !args) return [];
  const out = await capture(q.path, args, q.env);
  if (!out.ok) return [];
  const ids = lister.read(plain(out.stdout));
  return [...new Set(ids.filter((id) => MODEL_ID.test(id)))].slice(0, MAX_MODELS);
}
