import { describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolveCommand, usualDirs } from "../../src/process/resolve.ts";
import { adapters, BACKENDS } from "../../src/backends/index.ts";

function exe(dir: string, name: string, mode = 0o755): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, "#!/bin/sh\n");
  chmodSync(path, mode);
  return path;
}

function sandbox(): string {
  return mkdtempSync(join(tmpdir(), "orch-resolve-"));
}

describe("resolveCommand", () => {
  test("an absolute configured path is used as is when executable, rejected otherwise", () => {
    const root = sandbox();
    const good = exe(join(root, "opt"), "codex");
    const bad = exe(join(root, "opt"), "claude", 0o644);
    expect(resolveCommand(good, { env: {} })).toEqual({ path: good, via: "configured" });
    expect(resolveCommand(bad, { env: {} })).toBeUndefined();
    expect(resolveCommand(join(root, "missing"), { env: {} })).toBeUndefined();
  });

  test("PATH wins over the usual locations, skipping non-executables and directories", () => {
    const root = sandbox();
    const home = join(root, "home");
    exe(join(home, ".local/bin"), "gemini");
    exe(join(root, "a"), "gemini", 0o644);
    mkdirSync(join(root, "b", "gemini"), { recursive: true });
    const onPath = exe(join(root, "c"), "gemini");
    const env = { HOME: home, PATH: [join(root, "a"), join(root, "b"), "relative/dir", join(root, "c")].join(":") };
    expect(resolveCommand("gemini", { env })).toEqual({ path: onPath, via: "path" });
  });

  test("falls back to the usual install locations under HOME from opts.env", () => {
    const root = sandbox();
    const home = join(root, "home");
    const grok = exe(join(home, ".grok/bin"), "grok");
    const claude = exe(join(home, ".claude/local"), "claude");
    const env = { HOME: home, PATH: "/nonexistent" };
    // Each CLI's own installer directory comes from its backend.
    expect(resolveCommand("grok", { env, homeDirs: adapters.grok.installDirs })).toEqual({ path: grok, via: "usual" });
    expect(resolveCommand("claude", { env, homeDirs: adapters.claude.installDirs })).toEqual({ path: claude, via: "usual" });
    expect(resolveCommand("grok", { env: { PATH: "/nonexistent" }, homeDirs: adapters.grok.installDirs })).toBeUndefined();
  });

  test("the npm global prefix comes from npm_config_prefix; a symlinked binary resolves", () => {
    const root = sandbox();
    const target = exe(join(root, "lib/node_modules/@openai/codex/bin"), "codex.js");
    mkdirSync(join(root, "prefix/bin"), { recursive: true });
    symlinkSync(target, join(root, "prefix/bin/codex"));
    const env = { npm_config_prefix: join(root, "prefix"), HOME: join(root, "home") };
    expect(resolveCommand("codex", { env })).toEqual({ path: join(root, "prefix/bin/codex"), via: "usual" });
  });

  test("extraDirs are searched; relative and empty names never resolve", () => {
    const root = sandbox();
    const extra = exe(join(root, "extra"), "copilot");
    expect(resolveCommand("copilot", { env: {}, extraDirs: [join(root, "extra")] })).toEqual({ path: extra, via: "usual" });
    expect(resolveCommand("extra/copilot", { env: { PATH: root } })).toBeUndefined();
    expect(resolveCommand("", { env: { PATH: join(root, "extra") } })).toBeUndefined();
  });

  test("the usual list covers Homebrew, the npm prefixes and each CLI's installer", () => {
    const dirs = usualDirs(
      { HOME: "/h" },
      BACKENDS.flatMap((b) => adapters[b].installDirs),
    );
    for (const dir of [
      "/opt/homebrew/bin",
      "/usr/local/bin",
      "/home/linuxbrew/.linuxbrew/bin",
      "/h/.npm-global/bin",
      "/h/.local/share/npm/bin",
      "/h/.local/bin",
      "/h/.bun/bin",
      "/h/.opencode/bin",
      "/h/.grok/bin",
      "/h/.claude/local",
      "/h/.codex/bin",
    ]) {
      expect(dirs).toContain(dir);
    }
  });
});
