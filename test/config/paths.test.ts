import { describe, expect, test } from "bun:test";
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { defaultConfigPath, expandHome, resolveConfigPath } from "../../src/config/paths.ts";
import { privateDir, writeConfig } from "./helpers.ts";

describe("resolveConfigPath: SPEC §6 precedence", () => {
  test("ORCHESTRATE_CONFIG wins over everything, even when missing, and ~ is expanded", () => {
    const home = privateDir();
    writeConfig(join(home, ".config", "orchestrate"), "config.yaml", "{}");
    const loc = resolveConfigPath({ HOME: home, ORCHESTRATE_CONFIG: "~/elsewhere.yaml", MCP_ROUTER_CONFIG: "/x" });
    expect(loc).toEqual({ path: join(home, "elsewhere.yaml"), origin: "ORCHESTRATE_CONFIG", exists: false, explicit: true });
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
    expect(resolveConfigPath({ HOME: home })).toEqual({ path: join(home, ".config", "orchestrate", "config.yaml"), origin: "default", exists: false, explicit: false });
  });
});

describe("legacy locations, each with a notice", () => {
  test("MCP_ROUTER_CONFIG when no unified file exists", () => {
    const home = privateDir();
    const path = writeConfig(privateDir(), "router.json", "{}");
    const loc = resolveConfigPath({ HOME: home, MCP_ROUTER_CONFIG: path, ORCHESTRATOR_CONFIG: "/elsewhere" });
    expect(loc).toMatchObject({ path, origin: "MCP_ROUTER_CONFIG", explicit: true, legacy: "mcp-router" });
    expect(loc.notice).toBe(`reading a legacy config ${path} (MCP_ROUTER_CONFIG; set ORCHESTRATE_CONFIG instead); it still works, but move it: orchestrate import ${path} writes ${join(home, ".config/orchestrate/config.yaml")}`);
  });

  test("a unified file beats MCP_ROUTER_CONFIG", () => {
    const home = privateDir();
    const path = writeConfig(join(home, ".config", "orchestrate"), "config.yaml", "{}");
    const loc = resolveConfigPath({ HOME: home, MCP_ROUTER_CONFIG: writeConfig(privateDir(), "r.json", "{}") });
    expect(loc.path).toBe(path);
    expect(loc.notice).toBeUndefined();
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
