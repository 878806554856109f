import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { codexAdapter } from "../../src/backends/codex/index.ts";
import type { Adapter } from "../../src/backends/contract.ts";
import { providerConfig } from "../../src/runner/provider-config.ts";

const root = mkdtempSync(join(tmpdir(), "provider-config-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function world(home: string | undefined, repo: string | undefined): { env: Record<string, string>; cwd: string } {
  const dir = mkdtempSync(join(root, "w-"));
  const codexHome = join(dir, ".codex");
  const cwd = join(dir, "repo");
  mkdirSync(join(cwd, ".codex"), { recursive: true });
  mkdirSync(codexHome, { recursive: true });
  if (home !== undefined) writeFileSync(join(codexHome, "config.toml"), home);
  if (repo !== undefined) writeFileSync(join(cwd, ".codex", "config.toml"), repo);
  return { env: { HOME: dir, CODEX_HOME: codexHome }, cwd };
}

describe("the model provider a CLI's config selects (codex's model_provider)", () => {
  test("the home config names it", () => {
    const { env, cwd } = world('model_provider = "fake"\n[model_providers.fake]\nbase_url = "http://127.0.0.1:1/v1"\n', undefined);
    expect(providerConfig(codexAdapter, env, cwd, "route")).toEqual({ configuredProvider: "fake" });
  });

  test("the repo's own config wins over the home one", () => {
    const { env, cwd } = world('model_provider = "fake"\n', 'model_provider = "team"\n');
    expect(providerConfig(codexAdapter, env, cwd, "route")).toEqual({ configuredProvider: "team" });
  });

  test("nothing when no file sets it, a file is broken, or the run is an answer (user config ignored)", () => {
    expect(providerConfig(codexAdapter, world('model = "gpt-5.5"\n', undefined).env, "/nowhere", "route")).toEqual({});
    const broken = world("model_provider = = nope", undefined);
    expect(providerConfig(codexAdapter, broken.env, broken.cwd, "route")).toEqual({});
    const answer = world('model_provider = "fake"\n', undefined);
    expect(providerConfig(codexAdapter, answer.env, answer.cwd, "answer")).toEqual({});
    expect(providerConfig(withoutProviderFiles(codexAdapter), answer.env, answer.cwd, "route")).toEqual({});
  });
});

function withoutProviderFiles({ providerConfigFiles: _files, ...adapter }: Adapter): Adapter {
  return adapter;
}
