import { describe, expect, test } from "bun:test";
import { chmodSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.ts";
import { readsBackAs, renderYaml, writeConfigAtomic } from "../../src/config/write.ts";
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

  test("strings the parser would read as numbers, booleans or null stay strings", () => {
    const models = [
      ".nan",
      ".NaN",
      ".inf",
      "-.inf",
      "+.INF",
      "1e3",
      "0x1f",
      "0o17",
      "+1",
      "1_000",
      "yes",
      "No",
      "on",
      "~",
      "null",
      "Null",
      "true",
      "",
      " x",
      "x ",
      "#x",
      "- x",
      "a: b",
      "[x]",
      "{x}",
      "*x",
      "&x",
      "!x",
      "%x",
      "@x",
      "`x",
      "'x'",
      '"x"',
    ];
    for (const model of models) {
      const value = { agents: { [model || "k"]: { backend: "codex", model } } };
      expect(Bun.YAML.parse(renderYaml(value))).toEqual(value);
    }
  });
});

describe("writeConfigAtomic with a read-back check", () => {
  test("a text that would load differently from what was meant is refused; the old file stays", () => {
    const dir = privateDir();
    const path = join(dir, "managed.yaml");
    writeFileSync(path, "old\n", { mode: 0o600 });
    const meant = { agents: { a: { model: ".nan" } } };
    const result = writeConfigAtomic(path, "agents:\n  a:\n    model: .nan\n", readsBackAs(meant));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("config_invalid");
    expect(result.error.message).toContain("does not read back as what was meant");
    expect(readFileSync(path, "utf8")).toBe("old\n");
    expect(readdirSync(dir)).toEqual(["managed.yaml"]);
    expect(writeConfigAtomic(path, renderYaml(meant), readsBackAs(meant)).ok).toBe(true);
    expect(Bun.YAML.parse(readFileSync(path, "utf8"))).toEqual(meant);
  });
});
