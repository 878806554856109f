/**
 * The dashboard's cost plot says which costs are estimates (docs/cost.md): a codex attempt's cost,
 * computed from its tokens, is listed under the plot as estimated; a reported one is not.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { makeSandbox, type Sandbox } from "../../fakes/lib/sandbox.ts";
import { DEMO_CONFIG } from "../../fakes/lib/demo-world.ts";
import { startDashboard, type Dashboard } from "../../src/dashboard/server.ts";
import { openReadonlyRuntime } from "../../src/services/dashboard/index.ts";
import { openStore } from "../../src/store/db.ts";

let box: Sandbox;
let dash: Dashboard;

beforeAll(async () => {
  box = makeSandbox({});
  box.writeConfig(DEMO_CONFIG);
  const store = openStore(box.dbPath);
  if (!store.ok) throw new Error(store.error.message);
  const attempt = { n: 1, outcome: "ok" as const, reason: "answered", exitCode: 0, durationMs: 40, fellBack: false };
  const codex = store.value.runs.startRun({ tool: "route", tier: "standard", cwd: box.repo, prompt: "p" });
  store.value.runs.addAttempt({
    ...attempt,
    runId: codex,
    agentId: "codex-main",
    backend: "codex",
    provider: "openai",
    usage: { inputTokens: 42, outputTokens: 7, costUsd: 0.00042 },
    costEstimated: true,
  });
  const cheap = store.value.runs.startRun({ tool: "route", tier: "light", cwd: box.repo, prompt: "p" });
  store.value.runs.addAttempt({
    ...attempt,
    runId: cheap,
    agentId: "cheap",
    backend: "opencode",
    provider: "deepseek",
    usage: { inputTokens: 9, costUsd: 0.001 },
  });
  store.value.close();
  const rt = await openReadonlyRuntime(box.env);
  if (!rt.ok) throw new Error(rt.error.message);
  dash = startDashboard({ rt: rt.value, port: 0 });
});

afterAll(async () => {
  await dash?.stop();
  box?.cleanup();
});

const page = async (path: string) =>
  (await fetch(`http://127.0.0.1:${dash.port}${path}`, { headers: { cookie: `orchestrate_dashboard_${dash.port}=${dash.token}` } })).text();

describe("estimated cost on the dashboard", () => {
  test("the cost plot is titled as holding estimates and names the line whose cost was estimated", async () => {
    const html = await page("/usage?range=24h&by=agent");
    expect(html).toContain("(reported, some estimated)");
    const note = html.slice(html.indexOf('id="cost-estimated"'));
    expect(note).toContain("<code>codex-main</code>: $0.0004 over 1 call(s) estimated");
    expect(note.slice(0, note.indexOf("</ul>"))).not.toContain("<code>cheap</code>");
  });

  test("per backend too", async () => {
    expect(await page("/usage?range=24h&by=backend")).toContain("<code>codex</code>: $0.0004 over 1 call(s) estimated");
  });
});
