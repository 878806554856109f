/**
 * Editable mode end to end: `dashboard.editable: true`, the real `orchestrate dashboard` process,
 * form posts like a browser's. Writes land only in managed.yaml (0600), never in the main config,
 * only with this process's token and from this origin, only when the merged config would load —
 * and the server's loader then sees the managed agents and reviewers.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { DEMO_CONFIG } from "../../fakes/lib/demo-world.ts";
import { makeSandbox, type Sandbox } from "../../fakes/lib/sandbox.ts";
import { loadConfig } from "../../src/config/load.ts";
import { openStore } from "../../src/store/db.ts";
import { startDashboardProcess, type DashboardProcess } from "./world.ts";

let box: Sandbox;
let dash: DashboardProcess;
let mainBytes: string;
const managed = () => join(box.home, ".config", "orchestrate", "managed.yaml");

function post(path: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
  const body = new URLSearchParams(fields);
  return fetch(`${dash.origin}${path}`, {
    method: "POST",
    redirect: "manual",
    body,
    headers: {
      cookie: `orchestrate_dashboard_${dash.port}=${dash.token}`,
      origin: dash.origin,
      "sec-fetch-site": "same-origin",
      "content-type": "application/x-www-form-urlencoded",
      ...headers,
    },
  });
}

beforeAll(async () => {
  box = makeSandbox();
  box.writeConfig(`${DEMO_CONFIG}dashboard:\n  editable: true\n`);
  mainBytes = readFileSync(box.configPath, "utf8");
  const store = openStore(box.dbPath);
  if (store.ok) store.value.close();
  dash = await startDashboardProcess(box.env);
});

afterAll(async () => {
  await dash?.stop();
  box?.cleanup();
});

describe("dashboard.editable: true", () => {
  test("the editor page is served, with this process's token in its forms", async () => {
    expect(dash.stderr()).toContain("managed.yaml (0600)");
    const res = await fetch(`${dash.origin}/edit/agents`, { headers: { cookie: `orchestrate_dashboard_${dash.port}=${dash.token}` } });
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain(`name="token" value="${dash.token}"`);
    expect(page).toContain('action="/edit/agents/save"');
  });

  test("saving an agent writes managed.yaml 0600, leaves the main config byte-identical, and the loader sees it", async () => {
    const res = await post("/edit/agents/save", {
      token: dash.token,
      id: "gem",
      backend: "gemini",
      model: "gemini-2.5-pro",
      scores: "review=70, coding=60",
      enabled: "on",
    });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/edit/agents?saved=1");
    expect(statSync(managed()).mode & 0o777).toBe(0o600);
    expect(readFileSync(box.configPath, "utf8")).toBe(mainBytes);
    const loaded = await loadConfig({ env: box.env });
    if (!loaded.ok) throw new Error(loaded.error.message);
    expect(loaded.value.agents.gem).toMatchObject({ backend: "gemini", model: "gemini-2.5-pro", scores: { review: 70, coding: 60 }, enabled: true });
  });

  test("a model named like a YAML number (.nan, .inf, 1e3) is written quoted and loads as that string", async () => {
    for (const model of [".nan", "-.inf", "1e3"]) {
      const res = await post("/edit/agents/save", { token: dash.token, id: "odd", backend: "codex", model, enabled: "on" });
      expect(res.status).toBe(303);
      const loaded = await loadConfig({ env: box.env });
      if (!loaded.ok) throw new Error(loaded.error.message);
      expect(loaded.value.agents.odd?.model).toBe(model);
    }
    expect((await post("/edit/agents/delete", { token: dash.token, id: "odd" })).status).toBe(303);
  });

  test("the reviewer selection goes to the managed file and becomes consult.review", async () => {
    const res = await post("/edit/reviewers", { token: dash.token, reviewer: "codex-main", deep: "gem" });
    expect(res.status).toBe(303);
    const loaded = await loadConfig({ env: box.env });
    if (!loaded.ok) throw new Error(loaded.error.message);
    expect(loaded.value.consult.review).toMatchObject({ reviewers: ["codex-main"], deepReviewers: ["gem"] });
    expect(readFileSync(box.configPath, "utf8")).toBe(mainBytes);
  });

  test("refused without the form token, from another origin, or cross-site — and nothing is written", async () => {
    const before = readFileSync(managed(), "utf8");
    const fields = { id: "x1", backend: "codex", model: "gpt-5.5" };
    expect((await post("/edit/agents/save", fields)).status).toBe(403);
    expect((await post("/edit/agents/save", { ...fields, token: "nope" })).status).toBe(403);
    expect((await post("/edit/agents/save", { ...fields, token: dash.token }, { origin: "http://evil.example" })).status).toBe(403);
    expect((await post("/edit/agents/save", { ...fields, token: dash.token }, { "sec-fetch-site": "cross-site" })).status).toBe(403);
    expect((await post("/runs", { ...fields, token: dash.token })).status).toBe(405);
    expect(readFileSync(managed(), "utf8")).toBe(before);
  });

  test("a change the config would not load with is shown and not written: a clash with the main config, a bad entry", async () => {
    const before = readFileSync(managed(), "utf8");
    const clash = await post("/edit/agents/save", { token: dash.token, id: "cheap", backend: "codex", model: "gpt-5.5" });
    expect(clash.status).toBe(400);
    expect(await clash.text()).toContain("also defined in the main config");
    const bad = await post("/edit/agents/save", { token: dash.token, id: "bad", backend: "codex", model: "gpt-5.5", scores: "review=900" });
    expect(bad.status).toBe(400);
    expect(readFileSync(managed(), "utf8")).toBe(before);
  });

  test("removing an agent that a reviewer list names is refused; after the lists move, it goes", async () => {
    expect((await post("/edit/agents/delete", { token: dash.token, id: "gem" })).status).toBe(400);
    expect((await post("/edit/reviewers", { token: dash.token, reviewer: "codex-main", deep: "codex-main" })).status).toBe(303);
    expect((await post("/edit/agents/delete", { token: dash.token, id: "gem" })).status).toBe(303);
    const loaded = await loadConfig({ env: box.env });
    if (!loaded.ok) throw new Error(loaded.error.message);
    expect(loaded.value.agents.gem).toBeUndefined();
  });
});

describe("read-only (the default)", () => {
  test("no editor page and no POST anywhere", async () => {
    const ro = makeSandbox();
    ro.writeConfig(DEMO_CONFIG);
    const store = openStore(ro.dbPath);
    if (store.ok) store.value.close();
    const d = await startDashboardProcess(ro.env);
    try {
      const cookie = `orchestrate_dashboard_${d.port}=${d.token}`;
      expect((await fetch(`${d.origin}/edit/agents`, { headers: { cookie } })).status).toBe(404);
      expect((await fetch(`${d.origin}/edit/agents/save`, { method: "POST", headers: { cookie, origin: d.origin }, body: "id=x" })).status).toBe(405);
      expect(existsSync(join(ro.home, ".config", "orchestrate", "managed.yaml"))).toBe(false);
    } finally {
      await d.stop();
      ro.cleanup();
    }
  });
});
