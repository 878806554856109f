import { describe, expect, test } from "bun:test";
import { chmodSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.ts";
import { renderYaml, writeConfigAtomic } from "../../src/config/write.ts";
import { privateDir } from "./helpers.ts";

describe("writeConfigAtomic", () => {
  test("writes 0600 through a temp file + rename, creating a 0700 dir, and the loader accepts it", async () => {
    const dir = join(privateDir(), "orchestrate");
    const path = join(dir, "config.yaml");
    const result = writeConfigAtomic(path, "tiers:\n  heavy: { backend: claude, model: opus }\n");
    expect(result).toEqual({ ok: true, value: path });
    expect(statSync(path).mode & 0o7777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(readdirSync(dir)).toEqual(["config.yaml"]);
    const loaded = await loadConfig({ path, env: {} });
    expect(loaded.ok && loaded.value.tiers.heavy).toEqual(["heavy"]);
  });

  test("replaces an existing file (even one with a loose mode) with a 0600 one", () => {
    const dir = privateDir();
    const path = join(dir, "config.yaml");
    writeFileSync(path, "old");
    chmodSync(path, 0o644);
    expect(writeConfigAtomic(path, "new\n").ok).toBe(true);
    expect(Bun.file(path).size).toBe(4);
    expect(statSync(path).mode & 0o7777).toBe(0o600);
  });

  test("refuses a group/world-writable directory, writing nothing", () => {
    const dir = privateDir();
    chmodSync(dir, 0o777);
    const result = writeConfigAtomic(join(dir, "config.yaml"), "x");
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("config_insecure");
    expect(result.error.hint).toBe(`chmod go-w ${dir}`);
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe("renderYaml", () => {
  test("round-trips a config object through Bun.YAML", () => {
    const value = {
      agents: {
        "coder-a": { backend: "codex", model: "gpt-5.1", scores: { coding: 90 }, allowedTools: ["Read(./docs/**)", "WebFetch"], env: {} },
        "x y": { backend: "opencode", model: "<provider>/<model>", enabled: false, priority: 0 },
      },
      tiers: { light: null, standard: ["coder-a"], heavy: [{ backend: "claude", model: "opus" }, "coder-a"] },
      roots: ["~/Projects", "/srv/a b"],
      yes: "no",
      empty: [],
      text: "a: b # c\nsecond line",
      number: "123",
    };
    const text = renderYaml(value);
    expect(Bun.YAML.parse(text)).toEqual(value);
    expect(text).toContain("  coder-a:\n    backend: codex\n");
  });
});
