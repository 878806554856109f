import { describe, expect, test } from "bun:test";
import { chmodSync, chownSync, mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.ts";
import { captureLog, privateDir, SEED_000_CONFIG_JSON, writeConfig } from "./helpers.ts";

const VALID = "tiers:\n  heavy: { backend: claude, model: opus }\n";

function refused(result: Awaited<ReturnType<typeof loadConfig>>): { code: string; message: string; hint: string } {
  if (result.ok) throw new Error("expected a refusal, got a config");
  return { code: result.error.code, message: result.error.message, hint: result.error.hint ?? "" };
}

describe("hardened load: refusals name the exact fix", () => {
  test("a valid 0600 file in a 0700 dir loads", async () => {
    const path = writeConfig(privateDir(), "config.yaml", VALID);
    const result = await loadConfig({ path, env: {} });
    expect(result.ok && result.value.tiers.heavy).toEqual(["heavy"]);
  });

  test("a symlink is refused even when its target is a perfect 0600 file", async () => {
    const dir = privateDir();
    const target = writeConfig(dir, "real.yaml", VALID);
    const link = join(dir, "config.yaml");
    symlinkSync(target, link);
    const error = refused(await loadConfig({ path: link, env: {} }));
    expect(error.code).toBe("config_insecure");
    expect(error.message).toContain(`${link} is a symlink`);
    expect(error.hint).toContain("replace the symlink with the file itself");
  });

  for (const mode of [0o644, 0o640, 0o604, 0o700, 0o400]) {
    test(`mode 0${mode.toString(8)} is refused with chmod 600`, async () => {
      const path = writeConfig(privateDir(), "config.yaml", VALID, mode);
      const error = refused(await loadConfig({ path, env: {} }));
      expect(error.code).toBe("config_insecure");
      expect(error.message).toContain(`has mode 0${mode.toString(8)}; it must be 0600`);
      expect(error.hint).toBe(`chmod 600 ${path}`);
    });
  }

  test.skipIf(process.getuid?.() !== 0)("a file owned by another user is refused with chown", async () => {
    const path = writeConfig(privateDir(), "config.yaml", VALID);
    chownSync(path, 4242, 4242);
    const error = refused(await loadConfig({ path, env: {} }));
    expect(error.code).toBe("config_insecure");
    expect(error.message).toContain("is owned by uid 4242, not by you (uid 0)");
    expect(error.hint).toBe(`chown $USER ${path}`);
  });

  test.skipIf(process.getuid?.() !== 0)("a parent dir owned by another user is refused", async () => {
    const dir = privateDir();
    const path = writeConfig(dir, "config.yaml", VALID);
    chownSync(dir, 4242, 4242);
    const error = refused(await loadConfig({ path, env: {} }));
    expect(error.hint).toBe(`chown $USER ${dir}`);
  });

  for (const mode of [0o777, 0o775, 0o757, 0o1777]) {
    test(`a parent dir with mode 0${mode.toString(8)} is refused with chmod go-w`, async () => {
      const dir = privateDir();
      const path = writeConfig(dir, "config.yaml", VALID);
      chmodSync(dir, mode);
      const error = refused(await loadConfig({ path, env: {} }));
      expect(error.code).toBe("config_insecure");
      expect(error.message).toContain(`${dir} is group- or world-writable`);
      expect(error.hint).toBe(`chmod go-w ${dir}`);
    });
  }

  test("every problem is reported at once, each with its fix", async () => {
    const dir = privateDir();
    const path = writeConfig(dir, "config.yaml", VALID, 0o644);
    chmodSync(dir, 0o777);
    const error = refused(await loadConfig({ path, env: {} }));
    expect(error.hint).toBe(`chmod 600 ${path}; then chmod go-w ${dir}`);
  });

  test("a path with spaces is quoted in the fix", async () => {
    const path = writeConfig(join(privateDir(), "my dir"), "config.yaml", VALID, 0o644);
    const error = refused(await loadConfig({ path, env: {} }));
    expect(error.hint).toBe(`chmod 600 '${path}'`);
  });

  test("a FIFO at the path is refused without blocking", async () => {
    const dir = privateDir();
    const path = join(dir, "config.yaml");
    expect(Bun.spawnSync(["mkfifo", "-m", "600", path]).exitCode).toBe(0);
    const error = refused(await loadConfig({ path, env: {} }));
    expect(error.message).toBe(`${path} is not a regular file`);
  });

  test("a directory at the path is refused", async () => {
    const dir = privateDir();
    const path = join(dir, "config.yaml");
    mkdirSync(path, { mode: 0o600 });
    expect(refused(await loadConfig({ path, env: {} })).message).toBe(`${path} is not a regular file`);
  });
});

describe("absent, zero-config, invalid", () => {
  test("no file anywhere → zero config: every tier null, no agents", async () => {
    const home = privateDir();
    const result = await loadConfig({ env: { HOME: home } });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.source.format).toBe("none");
    expect(result.value.tiers).toEqual({ light: null, standard: null, heavy: null });
    expect(result.value.agents).toEqual({});
  });

  test("an explicitly named file that does not exist → config_absent", async () => {
    const path = join(privateDir(), "nope.yaml");
    const error = refused(await loadConfig({ path, env: {} }));
    expect(error.code).toBe("config_absent");
    expect(error.message).toBe(`no config file at ${path}`);
  });

  test("ORCHESTRATE_CONFIG pointing at nothing → config_absent (never silently zero-config)", async () => {
    const path = join(privateDir(), "nope.yaml");
    expect(refused(await loadConfig({ env: { HOME: privateDir(), ORCHESTRATE_CONFIG: path } })).code).toBe("config_absent");
  });

  test("a syntax error is config_invalid with the parser's reason", async () => {
    const path = writeConfig(privateDir(), "config.json", "{ nope");
    const error = refused(await loadConfig({ path, env: {} }));
    expect(error.code).toBe("config_invalid");
    expect(error.message).toContain(`${path}: not valid JSON:`);
  });

  test("a YAML syntax error names its line and column with a caret under it, and the hint fits one error", async () => {
    const path = writeConfig(privateDir(), "config.yaml", "agents:\n  a:\n    backend: codex\n   model: gpt-5.5\ntiers:\n  light: [a\n");
    const error = refused(await loadConfig({ path, env: {} }));
    expect(error.code).toBe("config_invalid");
    expect(error.message).toContain(`${path}:4:4: not valid YAML at line 4, column 4: Unexpected token`);
    expect(error.message).toContain("4 |    model: gpt-5.5\n       ^");
    expect(error.hint).toBe(`fix it as shown above, then run orchestrate check ${path}`);
  });

  test("an unclosed bracket points at the bracket", async () => {
    const path = writeConfig(privateDir(), "config.yaml", "agents:\n  a: { backend: codex, model: gpt-5.5 }\ntiers:\n  light: [a\n  heavy: null\n");
    const error = refused(await loadConfig({ path, env: {} }));
    expect(error.message).toContain("4 |   light: [a\n             ^");
    expect(error.message).toContain("a quote or bracket opened here is never closed");
  });

  test("an invalid file lists one line per bad key in details.errors", async () => {
    const path = writeConfig(privateDir(), "config.yaml", "tiers:\n  heavy: nobody\nmaxDepth: -1\n");
    const result = await loadConfig({ path, env: {} });
    if (result.ok) throw new Error("expected invalid");
    expect(result.error.details?.errors).toEqual(["maxDepth: must be non-negative (was -1) (use a value that is non-negative)"]);
  });

  test("an empty YAML file is an empty config", async () => {
    const path = writeConfig(privateDir(), "config.yaml", "");
    const result = await loadConfig({ path, env: {} });
    expect(result.ok && result.value.source).toEqual({ path, format: "yaml" });
  });

  test("a top-level list is refused", async () => {
    const path = writeConfig(privateDir(), "config.yaml", "- a\n- b\n");
    expect(refused(await loadConfig({ path, env: {} })).message).toContain("(top level): the file must hold a mapping of settings, was a list");
  });
});

describe("locations and legacy notices", () => {
  test("the seed-000 file at ~/.config/mcp-router/config.json loads, with a notice on the log", async () => {
    const home = privateDir();
    const path = writeConfig(join(home, ".config", "mcp-router"), "config.json", SEED_000_CONFIG_JSON);
    const { value: result, lines } = await captureLog(() => loadConfig({ env: { HOME: home } }));
    expect(result.ok && result.value.source).toEqual({ path, format: "json", legacy: "mcp-router" });
    expect(lines.some((l) => l.startsWith("warn:") && l.includes(`reading a legacy config ${path}`))).toBe(true);
  });

  test("the unified file wins over the legacy default, and one notice names the file it shadows", async () => {
    const home = privateDir();
    const legacy = writeConfig(join(home, ".config", "mcp-router"), "config.json", SEED_000_CONFIG_JSON);
    const path = writeConfig(join(home, ".config", "orchestrate"), "config.yaml", VALID);
    const { value: result, lines } = await captureLog(() => loadConfig({ env: { HOME: home } }));
    expect(result.ok && result.value.source.path).toBe(path);
    expect(lines).toEqual([`warn: reading ${path} (orchestrate's default); not read, because it comes first: ${legacy} (mcp-router's location)`]);
  });

  test("an environment variable naming a seed file wins over the unified default (issue 23 §1)", async () => {
    const home = privateDir();
    const unified = writeConfig(join(home, ".config", "orchestrate"), "config.yaml", VALID);
    const seed = writeConfig(privateDir(), "config.json", SEED_000_CONFIG_JSON);
    const { value: result, lines } = await captureLog(() => loadConfig({ env: { HOME: home, MCP_ROUTER_CONFIG: seed } }));
    expect(result.ok && result.value.source.path).toBe(seed);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`not read, because an environment variable names a file: ${unified}`);
  });

  test("Orchestrator keys without an effect are reported on the log, not dropped silently", async () => {
    const path = writeConfig(privateDir(), "config.yaml", "consult:\n  dashboard: { enabled: false }\n  agents: {}\n");
    const { lines } = await captureLog(() => loadConfig({ path, env: {} }));
    expect(lines).toContain(`warn: ${path}: consult.dashboard.enabled is accepted but has no effect in orchestrate`);
  });
});

test("loading the config does not import arktype until a file has to be validated", () => {
  const script = `
    const count = () => Object.keys(require.cache).filter((k) => k.includes("/arktype/")).length;
    const { loadConfig } = await import(${JSON.stringify(join(import.meta.dir, "../../src/config/load.ts"))});
    const before = count();
    const zero = await loadConfig({ env: { HOME: ${JSON.stringify(privateDir())} } });
    const afterZero = count();
    process.stdout.write(JSON.stringify({ before, afterZero, ok: zero.ok }));
  `;
  const run = Bun.spawnSync([process.execPath, "-e", script], { stderr: "pipe" });
  expect(JSON.parse(run.stdout.toString())).toEqual({ before: 0, afterZero: 0, ok: true });
});

describe("hostile files", () => {
  test.skipIf(process.platform !== "linux")("/proc/self/mem (regular, 0600, yours, size 0, unreadable) is a refusal, not a crash", async () => {
    const error = refused(await loadConfig({ path: "/proc/self/mem", env: {} }));
    expect(error.code).toBe("config_invalid");
    expect(error.message).toContain("/proc/self/mem cannot be read");
  });

  test("a duplicate YAML key is refused with the line of each occurrence, at any depth", async () => {
    const text = "agents:\n  a:\n    backend: codex\n    sandbox: read-only\n    model: x\n    sandbox: danger-full-access\ntiers:\n  heavy: [a]\n";
    const error = refused(await loadConfig({ path: writeConfig(privateDir(), "config.yaml", text), env: {} }));
    expect(error.code).toBe("config_invalid");
    expect(error.message).toContain('agents.a.sandbox: the key "sandbox" appears 2 times in one mapping (lines 4, 6)');
  });

  test("a duplicate JSON key is refused the same way; so is one in a flow mapping", async () => {
    const json = '{\n  "tiers": {\n    "heavy": ["a"],\n    "heavy": ["b"]\n  }\n}\n';
    const a = refused(await loadConfig({ path: writeConfig(privateDir(), "config.json", json), env: {} }));
    expect(a.code).toBe("config_invalid");
    expect(a.message).toContain('tiers.heavy: the key "heavy" appears 2 times in one mapping (lines 3, 4)');
    const flow = refused(await loadConfig({ path: writeConfig(privateDir(), "config.yaml", "tiers: { heavy: [a], heavy: [b] }\n"), env: {} }));
    expect(flow.message).toContain("(lines 1, 1)");
  });
});
