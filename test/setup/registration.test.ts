/**
 * Registration with every detected client: claude and codex through their own `mcp add` (the fakes
 * record the argv and write their config as the real CLIs do), opencode, Gemini CLI and Copilot CLI
 * through their JSON config files — always with this binary's absolute path.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { makeSandbox, type Sandbox } from "../../fakes/lib/sandbox.ts";
import { detectBackends } from "../../src/doctor/detect.ts";
import { applyRegistration, planRegistrations } from "../../src/setup/registration.ts";

let box: Sandbox | undefined;
afterEach(() => {
  box?.cleanup();
  box = undefined;
});

const SELF = ["/opt/orchestrate/bin/orchestrate"];

describe("client registration", () => {
  test("each detected client gets exactly one registration with the absolute path", async () => {
    box = makeSandbox({ XDG_CONFIG_HOME: "" });
    const env: Record<string, string> = { ...box.env };
    delete env.XDG_CONFIG_HOME;
    const probes = await detectBackends({ env, backends: ["claude", "codex", "opencode", "gemini", "copilot"] });
    const { plans } = planRegistrations(probes, SELF, env);
    expect(plans.map((p) => p.client).sort()).toEqual(["claude", "codex", "copilot", "gemini", "opencode"]);
    for (const plan of plans) expect((await applyRegistration(plan, env)).ok).toBe(true);

    const claudeRun = box.recordings("claude").find((r) => r.argv[0] === "mcp");
    expect(claudeRun?.argv).toEqual(["mcp", "add", "--scope", "user", "orchestrate", "--", ...SELF]);
    const claudeJson = JSON.parse(readFileSync(join(box.home, ".claude.json"), "utf8")) as { mcpServers: Record<string, { command: string }> };
    expect(claudeJson.mcpServers.orchestrate?.command).toBe(SELF[0]);
    const codexRun = box.recordings("codex").find((r) => r.argv[0] === "mcp");
    expect(codexRun?.argv).toEqual(["mcp", "add", "orchestrate", "--", ...SELF]);
    expect(readFileSync(join(box.home, ".codex", "config.toml"), "utf8")).toContain(`command = "${SELF[0]}"`);

    const json = (path: string) => JSON.parse(readFileSync(join(box!.home, path), "utf8")) as Record<string, Record<string, Record<string, unknown>>>;
    expect(json(".config/opencode/opencode.json").mcp?.orchestrate).toMatchObject({ type: "local", command: SELF });
    expect(json(".gemini/settings.json").mcpServers?.orchestrate).toMatchObject({ command: SELF[0], args: [] });
    expect(json(".copilot/mcp-config.json").mcpServers?.orchestrate).toMatchObject({ type: "local", command: SELF[0], tools: ["*"] });
  });

  test("a second pass over file-based clients finds them already registered", async () => {
    box = makeSandbox({});
    const env: Record<string, string> = { ...box.env };
    delete env.XDG_CONFIG_HOME;
    const probes = await detectBackends({ env, backends: ["gemini", "copilot"] });
    for (const plan of planRegistrations(probes, SELF, env).plans) await applyRegistration(plan, env);
    const again = planRegistrations(probes, SELF, env);
    expect(again.plans).toEqual([]);
    expect(again.skipped.join("\n")).toContain("already registered");
  });
});
