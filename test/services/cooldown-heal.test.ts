/**
 * Cooldowns that heal (services/shared/cooling.ts): a route to a signed-out codex arms an auth
 * cooldown; once the person signs in (the fake's credential file appears, as `codex login` writes
 * it), the next route re-checks the sign-in probe, clears the cooldown and is served at once —
 * while a capacity cooldown is not touched by a sign-in probe. `orchestrate cooldowns` lists and
 * clears through the router's own lookup.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeSandbox, type Sandbox } from "../../fakes/lib/sandbox.ts";
import { formatCooldowns } from "../../src/cli/cooldowns.ts";
import { routeTask } from "../../src/services/route/index.ts";
import { dryRun } from "../../src/services/route/tiers.ts";
import { clearCooldowns, cooldownsByAgent } from "../../src/services/shared/cooling.ts";
import { createRuntime, type Runtime } from "../../src/services/shared/runtime.ts";

const CONFIG = `agents:
  codex-main: { backend: codex, model: gpt-5.5 }
tiers:
  standard: [codex-main]
`;

let box: Sandbox | undefined;
let rt: Runtime | undefined;
afterEach(() => {
  rt?.store.close();
  box?.cleanup();
  rt = undefined;
  box = undefined;
});

async function signedOutWorld(): Promise<{ box: Sandbox; rt: Runtime; credentials: string; saved: string }> {
  box = makeSandbox();
  box.writeConfig(CONFIG);
  const credentials = join(box.home, ".codex", "auth.json");
  const saved = readFileSync(credentials, "utf8");
  rmSync(credentials);
  const opened = await createRuntime(box.env);
  if (!opened.ok) throw new Error(opened.error.message);
  rt = opened.value;
  return { box, rt, credentials, saved };
}

describe("cooldowns that heal", () => {
  test("signed out → auth cooldown; signed in again → the next route clears it and is served, without waiting", async () => {
    const w = await signedOutWorld();
    const first = await routeTask(w.rt, { prompt: "x", cwd: w.box.repo, tier: "standard" });
    expect(first.ok).toBe(false);
    expect(cooldownsByAgent(w.rt, w.rt.now()).get("codex-main")).toMatchObject({ cls: "auth", heals: true });
    expect(formatCooldowns(w.rt)).toMatch(/codex-main \(codex · gpt-5\.5\) — not signed in, until \d\d:\d\d:\d\d UTC \(\d+ s\); sign in \(codex login\)/);
    const stillOut = await routeTask(w.rt, { prompt: "x", cwd: w.box.repo, tier: "standard" });
    expect(stillOut.error?.code).toBe("no_candidates");

    writeFileSync(w.credentials, w.saved, { mode: 0o600 });
    const progress: string[] = [];
    const second = await routeTask(w.rt, { prompt: "x", cwd: w.box.repo, tier: "standard" }, { onProgress: (m) => progress.push(m) });
    expect(second.ok).toBe(true);
    expect(second.servedBy?.agent).toBe("codex-main");
    expect(progress[0]).toBe("codex-main: signed in again; its auth cooldown was cleared");
    expect(cooldownsByAgent(w.rt, w.rt.now()).size).toBe(0);
  });

  test("a run refused as signed out while its sign-in probe says ready: that probe cannot lift the cooldown", async () => {
    box = makeSandbox({ FAKE_OPENCODE_SCENARIO: "auth-fail", DEEPSEEK_API_KEY: "sk-test-not-a-real-key-0000000000" });
    box.writeConfig("agents:\n  cheap: { backend: opencode, model: deepseek/deepseek-v4-flash }\ntiers:\n  light: [cheap]\n");
    const opened = await createRuntime(box.env);
    if (!opened.ok) throw new Error(opened.error.message);
    rt = opened.value;
    expect((await routeTask(rt, { prompt: "x", cwd: box.repo, tier: "light" })).ok).toBe(false);
    expect(cooldownsByAgent(rt, rt.now()).get("cheap")).toMatchObject({ cls: "auth", heals: false });
    expect((await routeTask(rt, { prompt: "x", cwd: box.repo, tier: "light" })).error?.code).toBe("no_candidates");
  });

  test("a capacity cooldown is not lifted by a sign-in probe; `clear` ends it", async () => {
    const w = await signedOutWorld();
    writeFileSync(w.credentials, w.saved, { mode: 0o600 });
    const [agent] = Object.values(w.rt.config.agents);
    if (!agent) throw new Error("no agent");
    const { agentIdentityKey } = await import("../../src/services/shared/cooling.ts");
    w.rt.store.cooldowns.arm(agentIdentityKey(w.rt, agent), "capacity", w.rt.now() + 600_000, w.rt.now());
    const cooling = await routeTask(w.rt, { prompt: "x", cwd: w.box.repo, tier: "standard" });
    expect(cooling.error?.code).toBe("no_candidates");
    expect(clearCooldowns(w.rt, "codex-main")).toBe(1);
    expect(formatCooldowns(w.rt)).toBe("No agent is cooling down.\n");
    expect((await routeTask(w.rt, { prompt: "x", cwd: w.box.repo, tier: "standard" })).ok).toBe(true);
  });

  test("the dry run shows the healed decision a real route would take, and clears nothing", async () => {
    const w = await signedOutWorld();
    expect((await routeTask(w.rt, { prompt: "x", cwd: w.box.repo, tier: "standard" })).ok).toBe(false);
    const before = await dryRun(w.rt, { cwd: w.box.repo, tier: "standard" });
    expect(before.ok ? "planned" : before.error.code).toBe("no_candidates");

    writeFileSync(w.credentials, w.saved, { mode: 0o600 });
    const after = await dryRun(w.rt, { cwd: w.box.repo, tier: "standard" });
    expect(after.ok ? after.value.recipients.map((r) => r.agent) : []).toEqual(["codex-main"]);
    expect(cooldownsByAgent(w.rt, w.rt.now()).get("codex-main")).toMatchObject({ cls: "auth", heals: true });
  });
});
