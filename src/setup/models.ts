/**
 * Model discovery, best effort and untrusted: only what a CLI itself lists. Nothing here is ever
 * a default — the person confirms every pick, and a backend that lists nothing gets a typed id.
 */
import type { Backend, GrokVariant } from "../adapters/types.ts";
import { capture, plain } from "../process/capture.ts";

/** Ids are shown in prompts and written to the config: keep only plausible, bounded ones. */
const MODEL_ID = /^[A-Za-z0-9][\w.:@/+-]{0,127}$/;
const MAX_MODELS = 200;

export interface ModelQuery {
  backend: Backend;
  path: string;
  env: Record<string, string | undefined>;
  grokVariant?: GrokVariant;
}

export async function discoverModels(q: ModelQuery): Promise<string[]> {
  const args = listArgs(q);
  if (!args) return [];
  const out = await capture(q.path, args, q.env);
  if (!out.ok) return [];
  const ids = q.backend === "codex" ? codexCatalog(out.stdout) : listedIds(q.backend, out.stdout);
  return [...new Set(ids.filter((id) => MODEL_ID.test(id)))].slice(0, MAX_MODELS);
}

/** The command that makes each CLI list its models; undefined where there is none. */
function listArgs(q: ModelQuery): string[] | undefined {
  if (q.backend === "opencode") return ["models"];
  if (q.backend === "codex") return ["debug", "models"];
  if (q.backend === "grok" && q.grokVariant === "official") return ["models"];
  return undefined;
}

/** opencode prints one `provider/model` per line; grok indents each id under a header. */
export function listedIds(backend: Backend, stdout: string): string[] {
  const lines = plain(stdout).split("\n").map((l) => l.trim()).filter(Boolean);
  if (backend === "opencode") return lines.filter((l) => l.includes("/") && !l.includes(" "));
  return plain(stdout)
    .split("\n")
    .filter((l) => /^\s+\S+\s*$/.test(l))
    .map((l) => l.trim());
}

/** `codex debug models` prints its catalog as JSON; hidden entries are not offered. */
export function codexCatalog(stdout: string): string[] {
  try {
    const parsed = JSON.parse(stdout) as { models?: { slug?: unknown; visibility?: unknown }[] };
    return (parsed.models ?? []).filter((m) => m.visibility !== "hide" && typeof m.slug === "string").map((m) => m.slug as string);
  } catch {
    return [];
  }
}
