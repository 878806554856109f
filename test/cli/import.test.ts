/** orchestrate import: the seeds' config files → the unified format, written only on confirmation. */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Sandbox } from "../../fakes/lib/sandbox.ts";
import { runCliInProcess } from "../../fakes/lib/cli-in-process.ts";
import { usualLocationSandbox } from "../setup/helpers.ts";
import { KEY, spawnPty, type PtySession } from "../setup/pty.ts";

let box: Sandbox | undefined;
let term: PtySession | undefined;

afterEach(() => {
  term?.kill();
  term = undefined;
  box?.cleanup();
  box = undefined;
});

const ROUTER_JSON = JSON.stringify({
  tiers: {
    light: null,
    standard: { backend: "opencode", model: "opencode/big-pickle" },
    heavy: { backend: "claude", model: "opus", permissionMode: "acceptEdits" },
  },
  fallbacks: { heavy: "standard" },
  allowCrossProviderFallback: false,
});

const ORCHESTRATOR_YAML = `consult:
  timeout_s: 120
  agents:
    reviewer:
      runtime: claude
      model: opus
      scores: { review: 95 }
      reasoning_effort: high
`;

function withSource(name: string, text: string): string {
  box = usualLocationSandbox(["opencode"]);
  const file = join(box.root, name);
  writeFileSync(file, text, { mode: 0o600 });
  return file;
}

describe("orchestrate import", () => {
  test("an mcp-router config.json without a terminal: prints the unified YAML, writes nothing", async () => {
    const file = withSource("config.json", ROUTER_JSON);
    const out = await runCliInProcess(["import", file], (box as Sandbox).env);
    expect(out.code).toBe(1);
    expect(out.stderr).toContain("(mcp-router format)");
    expect(out.stdout).toContain("standard:\n    backend: opencode");
    expect(out.stderr).toContain("Not written");
    expect(existsSync((box as Sandbox).configPath)).toBe(false);
  }, 60_000);

  test("an Orchestrator config.yaml at a terminal: confirmed → written 0600 and loadable; ignored keys named", async () => {
    const file = withSource("orchestrator.yaml", ORCHESTRATOR_YAML);
    const b = box as Sandbox;
    term = spawnPty(["import", file], b.env);
    await term.expect("(orchestrator format)");
    await term.expect("consult.agents.reviewer.reasoning_effort");
    await term.expect(`Write ${b.configPath}?`);
    term.send("y\r");
    expect(await term.exited).toBe(0);
    expect(statSync(b.configPath).mode & 0o777).toBe(0o600);
    expect(readFileSync(b.configPath, "utf8")).toContain("timeoutSec: 120");
    const check = await runCliInProcess(["check"], b.env);
    // Loadable: valid (exit 0, or 3 when a CLI it names is missing here), never invalid (1).
    expect(check.code).not.toBe(1);
    expect(check.stdout).toContain("is valid");
    expect(check.stdout).toContain("reviewer: claude · opus");
  }, 60_000);

  test("declining writes nothing", async () => {
    const file = withSource("config.json", ROUTER_JSON);
    const b = box as Sandbox;
    term = spawnPty(["import", file], b.env);
    await term.expect(`Write ${b.configPath}?`);
    term.send("n\r");
    expect(await term.exited).toBe(1);
    expect(existsSync(b.configPath)).toBe(false);
  }, 60_000);

  test("importing the live Orchestrator config says the default would be ignored and offers to write it in place (issue 23 §1)", async () => {
    const file = withSource("orchestrator.yaml", ORCHESTRATOR_YAML);
    const b = box as Sandbox;
    const { ORCHESTRATE_CONFIG: _unset, ...env } = b.env;
    term = spawnPty(["import", file], { ...env, ORCHESTRATOR_CONFIG: file });
    await term.expect(`The server reads ${file} (ORCHESTRATOR_CONFIG)`);
    await term.expect("Where should the config go?");
    term.send(KEY.enter);
    await term.expect(`Write ${file}?`);
    term.send("y\r");
    expect(await term.exited).toBe(0);
    expect(readFileSync(file, "utf8")).toContain("timeoutSec: 120");
    expect(existsSync(b.configPath)).toBe(false);
  }, 60_000);
});

describe("orchestrate import of a client config", () => {
  const registration = (env: Record<string, string>) => JSON.stringify({ mcpServers: { router: { command: "npx", args: ["-y", "mcp-orchestrate"], env } } });

  test("an `npx -y mcp-orchestrate` registration is followed to the MCP_ROUTER_CONFIG it names", async () => {
    box = usualLocationSandbox(["opencode"]);
    const router = join(box.root, "claude.json");
    writeFileSync(router, ROUTER_JSON, { mode: 0o600 });
    const client = join(box.root, ".mcp.json");
    writeFileSync(client, registration({ MCP_ROUTER_CONFIG: router }), { mode: 0o600 });
    const out = await runCliInProcess(["import", client], box.env);
    expect(out.stderr).toContain(`registers mcp-router as "router" (npx mcp-orchestrate), which reads ${router}`);
    expect(out.stderr).toContain("(mcp-router format)");
    expect(out.stdout).toContain("standard:\n    backend: opencode");
    expect(existsSync(box.configPath)).toBe(false);
  }, 60_000);

  test("a Codex config.toml registration without MCP_ROUTER_CONFIG reads mcp-router's default config.json", async () => {
    box = usualLocationSandbox(["opencode"]);
    const dir = join(box.home, ".config", "mcp-router");
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(join(dir, "config.json"), ROUTER_JSON, { mode: 0o600 });
    const client = join(box.root, "config.toml");
    writeFileSync(client, `[mcp_servers.orchestrate]\ncommand = "npx"\nargs = ["-y", "mcp-orchestrate@1.2.0"]\n`, { mode: 0o600 });
    const out = await runCliInProcess(["import", client], box.env);
    expect(out.stderr).toContain(`which reads ${join(dir, "config.json")}`);
    expect(out.stdout).toContain("standard:\n    backend: opencode");
  }, 60_000);
});
