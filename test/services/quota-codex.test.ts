/**
 * codex's quota end to end (docs/design.md, "Quota"): the fake codex writes the account's windows
 * into its session rollout as the real one does; after the run the runner reads them from the
 * newest rollout and the route stores them under the agent's identity. A spent window fails the
 * turn, and the agent cools until the reset codex wrote, not for the fixed capacity time.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Sandbox } from "../../fakes/lib/sandbox.ts";
import { routeTask } from "../../src/services/route/index.ts";
import { dryRun } from "../../src/services/route/tiers.ts";
import { cooldownsByAgent } from "../../src/services/shared/cooling.ts";
import { quotaByAgent } from "../../src/services/shared/quota.ts";
import type { Runtime } from "../../src/services/shared/runtime.ts";
import { agentRecordDir, openServiceWorld, spawnCount, type ServiceWorld } from "../helpers/service-world.ts";

const RESET_SEC = Math.floor(Date.now() / 1000) + 5400;

let world: ServiceWorld;
let box: Sandbox;
let rt: Runtime;
const rec = (name: string) => agentRecordDir(box, name);
const spawned = (name: string) => spawnCount(box, name);

beforeAll(async () => {
  world = await openServiceWorld((b) => {
    box = b;
    const codex = (name: string, used: string) =>
      `  ${name}: { backend: codex, model: gpt-5.5, env: { FAKE_RECORD_DIR: ${rec(name)}, FAKE_CODEX_QUOTA_USED: "${used}", FAKE_CODEX_QUOTA_RESETS_AT: "${RESET_SEC}" } }`;
    return `agents:
${codex("warned", "95")}
${codex("spent", "100")}
  fine: { backend: claude, model: sonnet, env: { FAKE_RECORD_DIR: ${rec("fine")} } }
tiers:
  light: [warned, fine]
  heavy: [spent, fine]
allowCrossProviderFallback: true
`;
  });
  rt = world.rt;
});
afterAll(() => world.close());

describe("codex quota from its rollout", () => {
  test("a codex run's windows are stored; at 95 % used the agent then goes after a fine one, unspawned", async () => {
    const first = await routeTask(rt, { prompt: "x", cwd: box.repo, tier: "light" });
    expect(first.servedBy?.agent).toBe("warned");
    const windows = quotaByAgent(rt).get("warned") ?? [];
    expect(windows.find((w) => w.window === "5h")).toMatchObject({
      state: "ok",
      usedPercent: 95,
      resetsAt: RESET_SEC * 1000,
      source: "codex rollout rate_limits",
    });
    expect(windows.find((w) => w.window === "7d")).toMatchObject({ state: "ok", usedPercent: 10 });
    rmSync(rec("warned"), { recursive: true, force: true });

    const second = await routeTask(rt, { prompt: "x", cwd: box.repo, tier: "light" });
    expect(second.servedBy?.agent).toBe("fine");
    expect(spawned("warned")).toBe(0);
    const plan = await dryRun(rt, { cwd: box.repo, tier: "light" });
    if (!plan.ok) throw new Error(plan.error.message);
    expect(plan.value.decisions.find((d) => d.agent === "warned")?.reason).toMatch(/quota_warning: 5h 95 % used, resets \d\d:\d\d:\d\d UTC/);
  });

  test("a spent window fails the turn fast and cools the agent until codex's reset", async () => {
    const routed = await routeTask(rt, { prompt: "x", cwd: box.repo, tier: "heavy" });
    expect(routed.attempts[0]).toMatchObject({ agent: "spent", outcome: "unavailable", fellBack: true });
    expect(routed.servedBy?.agent).toBe("fine");
    expect(
      quotaByAgent(rt)
        .get("spent")
        ?.find((w) => w.window === "5h"),
    ).toMatchObject({ state: "exhausted", usedPercent: 100 });
    // Not the capacity class's fixed 600 s: the reset codex wrote, 90 minutes out.
    expect(cooldownsByAgent(rt, rt.now()).get("spent")?.until).toBe(RESET_SEC * 1000);
    const plan = await dryRun(rt, { cwd: box.repo, tier: "heavy" });
    if (!plan.ok) throw new Error(plan.error.message);
    expect(plan.value.decisions.find((d) => d.agent === "spent")?.reason).toContain("quota_exhausted: 5h exhausted until");
  });
});
