import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { adapters } from "../../src/backends/index.ts";
import { stripJsonComments, userMcpServerNames } from "../../src/runner/mcp-isolation.ts";

let dir = "";
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("the user's MCP servers, by name", () => {
  test("JSONC comments and trailing commas go; strings (URLs) stay", () => {
    const text = `{
      // a comment
      "url": "http://x/y", /* block */ "b": [1, 2,],
    }`;
    expect(JSON.parse(stripJsonComments(text))).toEqual({ url: "http://x/y", b: [1, 2] });
  });

  test("copilot: every server of $COPILOT_HOME/mcp-config.json", () => {
    dir = mkdtempSync(join(tmpdir(), "mcpiso-"));
    writeFileSync(join(dir, "mcp-config.json"), JSON.stringify({ mcpServers: { orchestrate: {}, tools: {} } }));
    expect(userMcpServerNames(adapters.copilot, { COPILOT_HOME: dir })).toEqual(["orchestrate", "tools"]);
  });

  test("opencode: global config (JSONC) and the repo's own config, without repeats", () => {
    dir = mkdtempSync(join(tmpdir(), "mcpiso-"));
    mkdirSync(join(dir, "cfg", "opencode"), { recursive: true });
    mkdirSync(join(dir, "repo"));
    writeFileSync(join(dir, "cfg", "opencode", "opencode.jsonc"), `{ // mine\n "mcp": { "orchestrate": { "type": "local" }, "shared": {} } }`);
    writeFileSync(join(dir, "repo", "opencode.json"), JSON.stringify({ mcp: { "repo-server": {}, shared: {} } }));
    expect(userMcpServerNames(adapters.opencode, { XDG_CONFIG_HOME: join(dir, "cfg"), HOME: dir }, join(dir, "repo")).sort()).toEqual([
      "orchestrate",
      "repo-server",
      "shared",
    ]);
  });

  test("no config, or a broken one, is no servers (never a crash)", () => {
    dir = mkdtempSync(join(tmpdir(), "mcpiso-"));
    writeFileSync(join(dir, "mcp-config.json"), "{not json");
    expect(userMcpServerNames(adapters.copilot, { COPILOT_HOME: dir })).toEqual([]);
    expect(userMcpServerNames(adapters.claude, { HOME: dir })).toEqual([]);
  });
});

describe("codex", () => {
  test("[mcp_servers.*] of CODEX_HOME/config.toml and the repo's .codex/config.toml; bare keys only", () => {
    dir = mkdtempSync(join(tmpdir(), "mcpiso-"));
    mkdirSync(join(dir, "repo", ".codex"), { recursive: true });
    writeFileSync(join(dir, "config.toml"), 'model = "gpt-5.5"\n[mcp_servers.orchestrate]\ncommand = "/x"\n[mcp_servers."has.dot"]\ncommand = "/z"\n');
    writeFileSync(join(dir, "repo", ".codex", "config.toml"), '[mcp_servers.repo-tools]\ncommand = "/y"\n');
    expect(userMcpServerNames(adapters.codex, { CODEX_HOME: dir }, join(dir, "repo"))).toEqual(["orchestrate", "repo-tools"]);
  });
});
