/**
 * The Claude Code plugin in the repo: the marketplace and plugin manifests' shape, the setup
 * command, and the launcher the manifest registers — run for real: it finds the installed binary
 * by absolute path (never trusting a relative ORCHESTRATE_BIN), says how to install it when there
 * is none, and a real MCP client reaches tools/list through it. Installing with Claude Code's own
 * commands needs the real claude CLI: scripts/smoke/claude-plugin.sh.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, copyFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { connect } from "../../fakes/lib/mcp-client.ts";
import { makeSandbox, REPO_ROOT, type Sandbox } from "../../fakes/lib/sandbox.ts";
import { BUN, MAIN } from "../setup/helpers.ts";

const PLUGIN = join(REPO_ROOT, "plugin");
const LAUNCHER = join(PLUGIN, "bin", "orchestrate-mcp");

interface Marketplace {
  name: string;
  owner: { name: string };
  plugins: { name: string; source: string; description: string; version: string }[];
}
interface PluginManifest {
  name: string;
  version: string;
  description: string;
  mcpServers: Record<string, { command: string; args?: string[]; env?: Record<string, string> }>;
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, "utf8")) as T;

let box: Sandbox | undefined;
afterEach(() => {
  box?.cleanup();
  box = undefined;
});

/** A stand-in for an installed binary: a script that runs this checkout's sources. */
function installedAt(dir: string): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "orchestrate");
  writeFileSync(file, `#!/bin/sh\nexec ${BUN} ${MAIN} "$@"\n`);
  chmodSync(file, 0o755);
  return file;
}

/** The launcher copied into `<dir>/plugin/bin`, as a clone (or Claude Code's plugin cache) holds it. */
function launcherIn(dir: string): string {
  mkdirSync(join(dir, "plugin", "bin"), { recursive: true });
  const file = join(dir, "plugin", "bin", "orchestrate-mcp");
  copyFileSync(LAUNCHER, file);
  chmodSync(file, 0o755);
  return file;
}

/** What `npm run build` names the host binary (build/compile.ts binaryName). */
const BUILD = `orchestrate-${process.platform}-${process.arch}`;

async function launch(env: Record<string, string>, args: string[], launcher = LAUNCHER): Promise<{ code: number; stdout: string; stderr: string }> {
  const proc = Bun.spawn([launcher, ...args], { env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

describe("Claude Code plugin manifests", () => {
  test("the marketplace lists the plugin at ./plugin, which holds a plugin manifest of the same name and version", () => {
    const market = readJson<Marketplace>(join(REPO_ROOT, ".claude-plugin", "marketplace.json"));
    expect(market.name).toBe("orchestrate");
    expect(market.owner.name.length).toBeGreaterThan(0);
    expect(market.plugins).toHaveLength(1);
    const entry = market.plugins[0];
    expect(entry?.source).toBe("./plugin");
    const plugin = readJson<PluginManifest>(join(REPO_ROOT, "plugin", ".claude-plugin", "plugin.json"));
    expect(plugin.name).toBe(entry?.name ?? "");
    expect(plugin.version).toBe(entry?.version ?? "");
    expect(plugin.version).toBe(readJson<{ version: string }>(join(REPO_ROOT, "package.json")).version);
  });

  test("the MCP server is the launcher, by the plugin root's absolute path, with the host runtime declared", () => {
    const plugin = readJson<PluginManifest>(join(PLUGIN, ".claude-plugin", "plugin.json"));
    expect(Object.keys(plugin.mcpServers)).toEqual(["orchestrate"]);
    const server = plugin.mcpServers.orchestrate;
    expect(server?.command).toBe("${CLAUDE_PLUGIN_ROOT}/bin/orchestrate-mcp");
    expect(server?.args ?? []).toEqual([]);
    expect(server?.env).toEqual({ ORCHESTRATE_HOST_RUNTIME: "claude" });
    expect(statSync(LAUNCHER).mode & 0o111).not.toBe(0);
  });

  test("/orchestrate:setup runs the doctor, then sends the person to the wizard at a terminal", () => {
    const text = readFileSync(join(PLUGIN, "commands", "setup.md"), "utf8");
    expect(text).toMatch(/^---\ndescription: .+\n/);
    expect(text).toContain('orchestrate-mcp" check');
    expect(text).toContain("orchestrate init --host claude");
    expect(text.indexOf(" check")).toBeLessThan(text.indexOf("orchestrate init"));
  });
});

describe("the launcher", () => {
  test("ORCHESTRATE_BIN wins; otherwise ~/.local/bin (install.sh's default) before PATH", async () => {
    box = makeSandbox();
    const local = installedAt(join(box.home, ".local", "bin"));
    const onPath = join(box.root, "path-bin");
    mkdirSync(onPath);
    writeFileSync(join(onPath, "orchestrate"), "#!/bin/sh\necho from-path\n");
    chmodSync(join(onPath, "orchestrate"), 0o755);
    const env = { ...box.env, PATH: `${onPath}:/usr/bin:/bin` };
    const viaLocal = await launch(env, ["--version"]);
    expect(viaLocal.code).toBe(0);
    expect(viaLocal.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    const explicit = installedAt(join(box.root, "elsewhere"));
    writeFileSync(local, "#!/bin/sh\necho from-local\n");
    expect((await launch({ ...env, ORCHESTRATE_BIN: explicit }, ["--version"])).stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    expect((await launch(env, ["--version"])).stdout.trim()).toBe("from-local");
    // A relative ORCHESTRATE_BIN is not a path to trust: it is skipped.
    expect((await launch({ ...env, ORCHESTRATE_BIN: "orchestrate" }, ["--version"])).stdout.trim()).toBe("from-local");
  });

  test("no binary anywhere: exit 127, every place it looked, and exactly where to put it — no placeholder, no package manager that has no formula", async () => {
    box = makeSandbox();
    const launcher = launcherIn(join(box.root, "clone"));
    const out = await launch({ ...box.env, PATH: "/usr/bin:/bin" }, [], launcher);
    expect(out.code).toBe(127);
    expect(out.stderr).toContain("orchestrate binary was not found");
    expect(out.stderr).toContain("ORCHESTRATE_BIN");
    expect(out.stderr).toContain(`${join(box.root, "clone", "dist", BUILD)}`);
    expect(out.stderr).toContain(`Put the binary at ${join(box.home, ".local", "bin", "orchestrate")}`);
    expect(out.stderr).toContain("curl -fsSL https://github.com/orchestrate-dev/orchestrate/releases/latest/download/install.sh | sh");
    expect(out.stderr).toContain(`npm run build && dist/${BUILD} init`);
    expect(out.stderr).not.toMatch(/<[a-z-]+>/);
    expect(out.stderr).not.toMatch(/brew install/);
  });

  test("a source build is found: dist/ of the clone the plugin runs from, or of a directory marketplace the installed copy came from", async () => {
    box = makeSandbox();
    const env = { ...box.env, PATH: "/usr/bin:/bin" };
    const clone = join(box.root, "my clone");
    const inPlace = launcherIn(clone);
    mkdirSync(join(clone, "dist"));
    writeFileSync(join(clone, "dist", BUILD), '#!/bin/sh\necho from-source-build "$@"\n');
    chmodSync(join(clone, "dist", BUILD), 0o755);
    expect((await launch(env, ["--version"], inPlace)).stdout.trim()).toBe("from-source-build --version");
    // Claude Code installs a copy under plugins/cache and records the marketplace's directory.
    const config = join(box.root, "claude-config");
    const cached = launcherIn(join(config, "plugins", "cache", "orchestrate", "orchestrate", "0.1.0"));
    const known = { orchestrate: { source: { source: "directory", path: clone }, installLocation: clone } };
    writeFileSync(join(config, "plugins", "known_marketplaces.json"), JSON.stringify(known, null, 2));
    expect((await launch({ ...env, CLAUDE_CONFIG_DIR: config }, ["--version"], cached)).stdout.trim()).toBe("from-source-build --version");
    // An installed binary still wins over a build that may be stale.
    writeFileSync(join(installedAt(join(box.home, ".local", "bin"))), "#!/bin/sh\necho from-local\n");
    expect((await launch({ ...env, CLAUDE_CONFIG_DIR: config }, [], cached)).stdout.trim()).toBe("from-local");
  });

  test("an MCP client started through the launcher gets initialize and tools/list from the installed binary", async () => {
    box = makeSandbox();
    installedAt(join(box.home, ".local", "bin"));
    const session = await connect({ ...box.env, PATH: "/usr/bin:/bin", ORCHESTRATE_HOST_RUNTIME: "claude" }, { command: [LAUNCHER] });
    try {
      const tools = await session.client.listTools();
      expect(tools.tools.map((t) => t.name)).toContain("route");
      expect(tools.tools.map((t) => t.name)).toContain("consult");
    } finally {
      await session.close();
    }
  });
});
