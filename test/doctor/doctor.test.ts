/**
 * `orchestrate check` as the doctor: CLIs found in a usual location outside PATH, versions, a
 * missing flag named with the version that has it, readiness, the store's health, a hint each.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync, chmodSync } from "node:fs";
import { dirname, join } from "node:path";
import { BUN_DIR, FAKES_DIR, type Sandbox } from "../../fakes/lib/sandbox.ts";
import { openStore } from "../../src/store/db.ts";
import { adapters } from "../../src/backends/index.ts";
import { loadConfig } from "../../src/config/load.ts";
import { agentIdentityKey } from "../../src/services/shared/cooling.ts";
import { runCliInProcess } from "../../fakes/lib/cli-in-process.ts";
import { usualLocationSandbox } from "../setup/helpers.ts";

let box: Sandbox | undefined;

afterEach(() => {
  box?.cleanup();
  box = undefined;
});

const CONFIG =
  "agents:\n  a:\n    backend: opencode\n    model: opencode/big-pickle\n  c:\n    backend: codex\n    model: gpt-5.5\ntiers:\n  light: [a]\n  heavy: [c]\n";

async function check(env: Record<string, string> = {}, clis?: string[]) {
  box = usualLocationSandbox(clis, env);
  box.writeConfig(CONFIG);
  return runCliInProcess(["check"], box.env);
}

describe("orchestrate check (doctor)", () => {
  test("finds CLIs that are only in ~/.local/bin (not on PATH) and reports path, version and readiness", async () => {
    const out = await check();
    expect(out.code).toBe(0);
    const bin = join((box as Sandbox).home, ".local", "bin");
    expect(out.stdout).toContain(`opencode ${bin}/opencode (usual location, not on PATH) · v1.18.33 · flags ok · signed in`);
    expect(out.stdout).toContain(`codex    ${bin}/codex (usual location, not on PATH) · v0.171.0 · flags ok · signed in`);
    expect(out.stdout).toContain("No problems found.");
    expect(out.stdout).toContain(": valid, no problems");
  }, 60_000);

  test("a --help that lacks a required flag is reported by name, with the version that has it", async () => {
    const out = await check({ FAKE_HELP_DROP_FLAG: "--pure" });
    expect(out.code).toBe(3);
    expect(out.stdout).toContain("missing --pure");
    expect(out.stdout).toMatch(/`opencode run --help` does not list --pure, which orchestrate passes \(opencode 1\.18\.33 has it\)/);
    expect(out.stdout).toContain("→ ");
  }, 60_000);

  test("a signed-out CLI is NOT signed in, with the login command as the hint", async () => {
    const out = await check({ FAKE_SCENARIO: "auth-fail" });
    // A valid file is not a working setup: the verdict counts the problems and the exit says so.
    expect(out.code).toBe(3);
    expect(out.stdout).toMatch(/✗ .*: valid, 2 problems \(2 block an agent/);
    expect(out.stdout).not.toContain("✓");
    expect(out.stdout).toContain("codex is installed but not signed in");
    expect(out.stdout).toContain("→ sign in: codex login");
    expect(out.stdout).toContain("opencode is installed but not signed in");
  }, 60_000);

  test("a configured CLI that is nowhere is a problem with an install hint", async () => {
    const out = await check({}, ["opencode"]);
    expect(out.code).toBe(3);
    expect(out.stdout).toContain("codex: codex was not found on PATH or in the usual install locations");
    expect(out.stdout).toContain("set command: to its absolute path");
  }, 60_000);

  test("store health: a healthy store is ok; a corrupt one is a problem with a hint", async () => {
    box = usualLocationSandbox(["opencode", "codex"]);
    box.writeConfig(CONFIG);
    const created = openStore(box.dbPath);
    expect(created.ok).toBe(true);
    if (created.ok) created.value.close();
    const healthy = await runCliInProcess(["check"], box.env);
    expect(healthy.stdout).toContain(`Store: ${box.dbPath} — ok`);
    writeFileSync(box.dbPath, "this is not a database, just bytes that are long enough to look like a header...".repeat(20));
    chmodSync(box.dbPath, 0o600);
    const broken = await runCliInProcess(["check"], box.env);
    expect(broken.stdout).toContain(`✗ store ${box.dbPath}`);
    expect(broken.stdout).toMatch(/→ .+/);
  }, 60_000);

  test("the CLIs are probed in parallel, each one's probes at once, and each line is printed as it answers", async () => {
    box = usualLocationSandbox(["opencode", "codex"]);
    box.writeConfig(CONFIG);
    // codex's every probe (version, help, login status) now takes 2 s and notes when it started:
    // one after another they would start 2 s apart, and opencode's line would wait for codex's.
    const bin = join(box.home, ".local", "bin");
    const starts = join(box.root, "codex-starts");
    writeFileSync(join(bin, "codex"), `#!/bin/sh\ndate +%s%N >> ${starts}\nsleep 2\nexec ${join(BUN_DIR, "bun")} ${join(FAKES_DIR, "codex")} "$@"\n`);
    chmodSync(join(bin, "codex"), 0o755);
    const out = await runCliInProcess(["check"], box.env);
    expect(out.code).toBe(0);
    const started = readFileSync(starts, "utf8")
      .trim()
      .split("\n")
      .map((ns) => Number(ns) / 1e6);
    expect(started).toHaveLength(3);
    expect(Math.max(...started) - Math.min(...started)).toBeLessThan(1500);
    const lines = out.stdout.split("\n");
    const at = (backend: string) => lines.findIndex((l) => l.startsWith(`  ${backend.padEnd(8)} `));
    expect(at("opencode")).toBeGreaterThan(0);
    expect(at("opencode")).toBeLessThan(at("codex"));
    expect(out.stdout).toContain("No problems found.");
  }, 60_000);

  test("a probe two checks share runs once (grok's variant is read from the same --help the flags are)", async () => {
    box = usualLocationSandbox(["grok", "gemini"]);
    box.writeConfig("agents:\n  g: { backend: grok, model: grok-4 }\ntiers: { light: [g], standard: null, heavy: null }\n");
    expect((await runCliInProcess(["check"], box.env)).code).toBe(0);
    const grok = box.recordings("grok").map((r) => r.argv.join(" "));
    expect(grok.sort()).toEqual(["--help", "--version"]);
    // gemini's probes skip its self-relaunch into a second node process.
    expect(box.recordings("gemini").map((r) => r.env.GEMINI_CLI_NO_RELAUNCH)).toEqual(["true", "true"]);
  }, 60_000);

  test("an agent cooling down now is shown with its class and when it comes back, under the router's key", async () => {
    box = usualLocationSandbox(["opencode", "codex"]);
    box.writeConfig(CONFIG);
    const loaded = await loadConfig({ env: box.env });
    if (!loaded.ok) throw new Error(loaded.error.message);
    const created = openStore(box.dbPath);
    if (!created.ok) throw new Error(created.error.message);
    const codex = loaded.value.agents.c;
    if (!codex) throw new Error("no agent c");
    created.value.cooldowns.arm(agentIdentityKey({ env: box.env, adapters }, codex), "auth", Date.now() + 30 * 60_000);
    created.value.close();
    const out = await runCliInProcess(["check"], box.env);
    expect(out.stdout).toMatch(/ c: codex · gpt-5\.5 \[openai\] · cooling down \(auth\) for 30 min, until \d{4}-/);
    expect(out.stdout).not.toMatch(/ a: opencode.*cooling/);
  }, 60_000);

  test("an invalid config exits 1 with the fix", async () => {
    box = usualLocationSandbox(["opencode"]);
    mkdirSync(dirname(box.configPath), { recursive: true });
    box.writeConfig("tierz: {}\n");
    const out = await runCliInProcess(["--check"], box.env);
    expect(out.code).toBe(1);
    expect(out.stdout).toContain("tierz");
  }, 60_000);
});
