/** An in-process world for the ask service: a loopback fake provider, a real store, a config built the real way. */
import { afterAll } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { adapters } from "../../src/backends/index.ts";
import { validateConfigObject } from "../../src/config/validate.ts";
import type { Runtime } from "../../src/services/shared/runtime.ts";
import { openStore } from "../../src/store/db.ts";
import { startFakeProvider, type FakeProvider } from "../../fakes/lib/fake-provider.ts";

export const KEYS = {
  openai: ["sk", "proj", "T3stK3yF0rTh3F4k3Pr0v1d3r0nly9x"].join("-"),
  anthropic: ["sk", "ant", "api03", "T3stK3yF0rTh3F4k3Pr0v1d3r0nly9xAA"].join("-"),
};

export const ENV = { OPENAI_KEY: KEYS.openai, ANTHROPIC_KEY: KEYS.anthropic };

const dirs: string[] = [];
const providers: FakeProvider[] = [];
afterAll(async () => {
  for (const p of providers) await p.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

export function provider(): FakeProvider {
  const p = startFakeProvider({ keys: KEYS });
  providers.push(p);
  return p;
}

export interface AskWorld {
  rt: Runtime;
  provider: FakeProvider;
  dbPath: string;
}

/** A deployment on the fake: openai/<model> at its /v1, or anthropic/<model> at its root. */
export function dep(p: FakeProvider, model: string, format: "openai" | "anthropic" = "openai", extra: Record<string, unknown> = {}): Record<string, unknown> {
  return format === "openai"
    ? { model: `openai/${model}`, baseUrl: p.openaiBase, apiKeyEnv: "OPENAI_KEY", ...extra }
    : { model: `anthropic/${model}`, baseUrl: p.url, apiKeyEnv: "ANTHROPIC_KEY", ...extra };
}

export function world(p: FakeProvider, ask: Record<string, unknown>, env: Record<string, string | undefined> = ENV): AskWorld {
  const validated = validateConfigObject({ ask }, { format: "yaml" }, {});
  if (!validated.ok) throw new Error(validated.errors.join("\n"));
  const dir = mkdtempSync(join(tmpdir(), "orch-ask-"));
  dirs.push(dir);
  const dbPath = join(dir, "state", "orchestrate.db");
  const store = openStore(dbPath);
  if (!store.ok) throw new Error(store.error.message);
  const rt: Runtime = { env, config: validated.value.config, store: store.value, adapters, roots: [], now: Date.now };
  return { rt, provider: p, dbPath };
}
