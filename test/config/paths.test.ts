import { describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { defaultConfigPath, expandHome, resolveConfigPath } from "../../src/config/paths.ts";
import { privateDir, writeConfig } from "./helpers.ts";

describe("resolveConfigPath: SPEC §6 precedence", () => {
  test("ORCHESTRATE_CONFIG wins over everything, even when missing, and ~ is expanded", () => {
    const home = privateDir();
    writeConfig(join(home, ".config", "orchestrate"), "config.yaml", "{}");
    const loc = resolveConfigPath({ HOME: home, ORCHESTRATE_CONFIG: "~/elsewhere.yaml", MCP_ROUTER_CONFIG: "/x" });
    expect(loc).toMatchObject({ path: join(home, "elsewhere.yaml"), origin: "ORCHESTRATE_CONFIG", exists: false, explicit: true });
    // The default file it shadows is named (the missing /x shadows nothing).
    expect(loc.shadowed).toEqual([{ path: join(home, ".config", "orchestrate", "config.yaml"), origin: "home" }]);
  });

  test("$XDG_CONFIG_HOME/orchestrate/config.yaml before ~/.config/orchestrate", () => {
    const home = privateDir();
    const xdg = privateDir();
    writeConfig(join(home, ".config", "orchestrate"), "config.yaml", "{}");
    const path = writeConfig(join(xdg, "orchestrate"), "config.yaml", "{}");
    expect(resolveConfigPath({ HOME: home, XDG_CONFIG_HOME: xdg })).toMatchObject({ path, origin: "xdg", explicit: false });
  });

  test("config.json is found when there is no config.yaml", () => {
    const home = privateDir();
    const path = writeConfig(join(home, ".config", "orchestrate"), "config.json", "{}");
    expect(resolveConfigPath({ HOME: home }).path).toBe(path);
  });

  test("~/.config/orchestrate is still found when XDG_CONFIG_HOME holds nothing", () => {
    const home = privateDir();
    const path = writeConfig(join(home, ".config", "orchestrate"), "config.yaml", "{}");
    expect(resolveConfigPath({ HOME: home, XDG_CONFIG_HOME: privateDir() })).toMatchObject({ path, origin: "home" });
  });

  test("a dangling symlink counts as present, so the loader refuses it instead of skipping it", () => {
    const home = privateDir();
    const dir = join(home, ".config", "orchestrate");
    writeConfig(dir, "other", "{}");
    symlinkSync(join(dir, "missing"), join(dir, "config.yaml"));
    expect(resolveConfigPath({ HOME: home })).toMatchObject({ path: join(dir, "config.yaml"), exists: true });
  });

  test("nothing anywhere → the default path, not existing, not explicit", () => {
    const home = privateDir();
    expect(resolveConfigPath({ HOME: home })).toEqual({
      path: join(home, ".config", "orchestrate", "config.yaml"),
      origin: "default",
      exists: false,
      explicit: false,
    });
  });
});

describe("legacy locations, each with a notice", () => {
  test("MCP_ROUTER_CONFIG when no unified file exists", () => {
    const home = privateDir();
    const path = writeConfig(privateDir(), "router.json", "{}");
    const loc = resolveConfigPath({ HOME: home, MCP_ROUTER_CONFIG: path, ORCHESTRATOR_CONFIG: "/elsewhere" });
    expect(loc).toMatchObject({ path, origin: "MCP_ROUTER_CONFIG", explicit: true, legacy: "mcp-router" });
    expect(loc.notice).toBe(
      `reading a legacy config ${path} (MCP_ROUTER_CONFIG; set ORCHESTRATE_CONFIG instead); it still works, but move it: orchestrate import ${path} writes ${join(home, ".config/orchestrate/config.yaml")}`,
    );
  });

  test("MCP_ROUTER_CONFIG beats a unified default file, and the one notice names both (issue 23 §1)", () => {
    const home = privateDir();
    const unified = writeConfig(join(home, ".config", "orchestrate"), "config.yaml", "{}");
    const named = writeConfig(privateDir(), "r.json", "{}");
    const loc = resolveConfigPath({ HOME: home, MCP_ROUTER_CONFIG: named });
    expect(loc).toMatchObject({ path: named, origin: "MCP_ROUTER_CONFIG", legacy: "mcp-router", shadowed: [{ path: unified, origin: "home" }] });
    expect(loc.notice).toContain(`reading a legacy config ${named} (MCP_ROUTER_CONFIG; set ORCHESTRATE_CONFIG instead)`);
    expect(loc.notice).toContain(`not read, because an environment variable names a file: ${unified} (orchestrate's default)`);
  });

  test("ORCHESTRATOR_CONFIG beats a unified default file; ORCHESTRATE_CONFIG beats both", () => {
    const home = privateDir();
    const unified = writeConfig(join(home, ".config", "orchestrate"), "config.yaml", "{}");
    const seed = writeConfig(privateDir(), "config.yaml", "consult: { timeout_s: 10 }");
    expect(resolveConfigPath({ HOME: home, ORCHESTRATOR_CONFIG: seed })).toMatchObject({
      path: seed,
      origin: "ORCHESTRATOR_CONFIG",
      shadowed: [{ path: unified }],
    });
    const mine = writeConfig(privateDir(), "mine.yaml", "{}");
    const loc = resolveConfigPath({ HOME: home, ORCHESTRATOR_CONFIG: seed, ORCHESTRATE_CONFIG: mine });
    expect(loc).toMatchObject({
      path: mine,
      shadowed: [
        { path: seed, origin: "ORCHESTRATOR_CONFIG" },
        { path: unified, origin: "home" },
      ],
    });
    expect(loc.notice).toBe(
      `reading ${mine} (ORCHESTRATE_CONFIG); not read, because an environment variable names a file: ${seed} (ORCHESTRATOR_CONFIG), ${unified} (orchestrate's default)`,
    );
  });

  test("ORCHESTRATOR_CONFIG", () => {
    const path = writeConfig(privateDir(), "config.yaml", "consult: {}");
    const loc = resolveConfigPath({ HOME: privateDir(), ORCHESTRATOR_CONFIG: path });
    expect(loc).toMatchObject({ path, origin: "ORCHESTRATOR_CONFIG", legacy: "orchestrator" });
    expect(loc.notice).toContain("ORCHESTRATOR_CONFIG; set ORCHESTRATE_CONFIG instead");
  });

  test("$XDG_CONFIG_HOME/mcp-router/config.json, then ~/.config/mcp-router/config.json", () => {
    const home = privateDir();
    const xdg = privateDir();
    const inHome = writeConfig(join(home, ".config", "mcp-router"), "config.json", "{}");
    expect(resolveConfigPath({ HOME: home, XDG_CONFIG_HOME: xdg })).toMatchObject({ path: inHome, origin: "legacy-home" });
    const inXdg = writeConfig(join(xdg, "mcp-router"), "config.json", "{}");
    const loc = resolveConfigPath({ HOME: home, XDG_CONFIG_HOME: xdg });
    expect(loc).toMatchObject({ path: inXdg, origin: "legacy-xdg", explicit: false });
    expect(loc.notice).toContain(`reading a legacy config ${inXdg} (mcp-router's location)`);
  });
});

test("expandHome and defaultConfigPath", () => {
  expect(expandHome("~/a/b", { HOME: "/h" })).toBe("/h/a/b");
  expect(expandHome("~", { HOME: "/h" })).toBe("/h");
  expect(expandHome("/x/~/y", { HOME: "/h" })).toBe("/x/~/y");
  expect(defaultConfigPath({ HOME: "/h", XDG_CONFIG_HOME: "/c" })).toBe("/c/orchestrate/config.yaml");
  expect(defaultConfigPath({ HOME: "/h", XDG_CONFIG_HOME: "relative" })).toBe("/h/.config/orchestrate/config.yaml");
});

describe("Orchestrator MCP's own defaults (issue 23 §1)", () => {
  const SEED = "consult:\n  agents:\n    c: { runtime: codex, command: codex, model: gpt-5.5, scores: { coding: 90 } }\n";

  test("~/.orchestrator-mcp/config.yaml (what its init writes) when nothing else exists; a unified file shadows it, with a notice", () => {
    const home = privateDir();
    const seed = writeConfig(join(home, ".orchestrator-mcp"), "config.yaml", SEED);
    const cwd = privateDir();
    expect(resolveConfigPath({ HOME: home }, { cwd })).toMatchObject({ path: seed, origin: "orchestrator-home", explicit: false, legacy: "orchestrator" });
    const unified = writeConfig(join(home, ".config", "orchestrate"), "config.yaml", "{}");
    const loc = resolveConfigPath({ HOME: home }, { cwd });
    expect(loc).toMatchObject({ path: unified, shadowed: [{ path: seed, origin: "orchestrator-home" }] });
    expect(loc.notice).toContain(`not read, because it comes first: ${seed} (Orchestrator MCP's init location)`);
  });

  test("config.yaml in the working directory: read when it is yours, 0600, Orchestrator-shaped and outside any git repository", () => {
    const cwd = privateDir();
    const path = writeConfig(cwd, "config.yaml", SEED);
    expect(resolveConfigPath({ HOME: privateDir() }, { cwd })).toMatchObject({ path, origin: "orchestrator-cwd", legacy: "orchestrator", explicit: false });
  });

  test("…never inside a git repository (a clone cannot configure the server), and the notice says why", () => {
    const repo = privateDir();
    mkdirSync(join(repo, ".git"));
    const cwd = join(repo, "sub");
    writeConfig(cwd, "config.yaml", SEED);
    const loc = resolveConfigPath({ HOME: privateDir() }, { cwd });
    expect(loc).toMatchObject({ origin: "default", exists: false });
    expect(loc.notice).toBe(
      `${join(cwd, "config.yaml")} looks like an Orchestrator MCP config but is not read: the working directory is inside the git repository ${repo} (set ORCHESTRATOR_CONFIG to its absolute path to use it)`,
    );
  });

  test("…never group-readable, never a symlink, never another tool's file, never when a variable names a file", () => {
    const loose = privateDir();
    writeConfig(loose, "config.yaml", SEED, 0o644);
    expect(resolveConfigPath({ HOME: privateDir() }, { cwd: loose })).toMatchObject({
      origin: "default",
      notice: expect.stringContaining("has mode 0644, not 0600"),
    });
    const linked = privateDir();
    symlinkSync(writeConfig(privateDir(), "real.yaml", SEED), join(linked, "config.yaml"));
    expect(resolveConfigPath({ HOME: privateDir() }, { cwd: linked })).toEqual({ path: expect.any(String), origin: "default", exists: false, explicit: false });
    const other = privateDir();
    writeConfig(other, "config.yaml", "services:\n  web: { image: nginx }\n");
    expect(resolveConfigPath({ HOME: privateDir() }, { cwd: other })).toEqual({ path: expect.any(String), origin: "default", exists: false, explicit: false });
    const fine = privateDir();
    writeConfig(fine, "config.yaml", SEED);
    const named = writeConfig(privateDir(), "x.yaml", SEED);
    const loc = resolveConfigPath({ HOME: privateDir(), ORCHESTRATOR_CONFIG: named }, { cwd: fine });
    expect(loc).toMatchObject({ path: named });
    expect(loc.shadowed).toBeUndefined();
  });

  test("assumeExists: where init would write, and what that would shadow", () => {
    const home = privateDir();
    const seed = writeConfig(join(home, ".orchestrator-mcp"), "config.yaml", SEED);
    const target = defaultConfigPath({ HOME: home });
    expect(resolveConfigPath({ HOME: home }, { cwd: privateDir(), assumeExists: target })).toMatchObject({ path: target, shadowed: [{ path: seed }] });
  });
});
