/**
 * The dashboard in a real headless Chromium (Debian's, driven by playwright-core), over a store
 * filled by real routed and consulted runs through the fakes: every page renders with data, the
 * plots have points, the live view picks up a run while it is in progress, refusals hold, and no
 * request ever leaves the page's own origin. .ci/run installs chromium; only a machine where it
 * truly cannot be installed skips, and says so.
 *
 * DASHBOARD_SCREENSHOTS=1 writes docs/dashboard/{overview,run,usage}.png from this same world.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { REPO_ROOT } from "../../fakes/lib/sandbox.ts";
import { BUN, MAIN } from "../setup/helpers.ts";
/** The page's own globals, for the functions playwright runs inside Chromium (the suite's lib has no DOM). */
declare const document: { getElementById(id: string): { textContent: string | null } | null; querySelector(q: string): { textContent: string | null } | null; querySelectorAll(q: string): { length: number } };

import { filledWorld, startDashboardProcess, type DashboardProcess, type Filled } from "./world.ts";

const CHROMIUM = "/usr/bin/chromium";
const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) process.stderr.write(`SKIP test/dashboard/browser.test.ts: ${CHROMIUM} is missing (apt-get install chromium); .ci/run installs it.\n`);

const shots = process.env.DASHBOARD_SCREENSHOTS === "1" ? join(REPO_ROOT, "docs", "dashboard") : mkdtempSync(join(tmpdir(), "orch-shots-"));

let world: Filled;
let dash: DashboardProcess;
let browser: Browser;
let page: Page;
const requested: string[] = [];

describe.skipIf(!haveChromium)("dashboard in headless Chromium", () => {
  beforeAll(async () => {
    world = await filledWorld();
    dash = await startDashboardProcess(world.box.env);
    const { chromium } = await import("playwright-core");
    browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
    page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
    page.on("request", (r) => requested.push(r.url()));
    mkdirSync(shots, { recursive: true });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await dash?.stop();
    world?.box.cleanup();
  });

  test("the world holds what the pages will show: two served runs, one failed, two consultations", () => {
    expect(world.codes).toEqual([0, 0, 1, 0, 1]);
  });

  test("the printed URL's token becomes a cookie and leaves the address bar; the overview lists agents and runs", async () => {
    await page.goto(dash.url);
    expect(page.url()).toBe(`${dash.origin}/`);
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === `orchestrate_dashboard_${dash.port}`)?.httpOnly).toBe(true);
    await expect(page.locator("table.agents tbody tr").count()).resolves.toBe(3);
    expect(await page.locator("table.agents").innerText()).toContain("claude-opus");
    expect(await page.locator("table.agents").innerText()).toContain("cooling");
    expect(await page.locator("table.tiers").innerText()).toContain("then standard");
    await expect(page.locator("table.runs tbody tr").count()).resolves.toBeGreaterThanOrEqual(4);
    await page.waitForFunction(() => document.getElementById("live")?.textContent === "live");
    // The doctor probes every CLI in the background; its report arrives through the live stream.
    await page.waitForFunction(() => !document.querySelector("table.agents")?.textContent?.includes("probing"), undefined, { timeout: 30_000 });
    const agents = await page.locator("table.agents").innerText();
    expect(agents).toContain(`${REPO_ROOT}/fakes/codex`);
    expect(agents).toMatch(/codex-main\s+codex\s+gpt-5\.5\s+openai\s+\d+\.\d+/);
    await page.screenshot({ path: join(shots, "overview.png"), fullPage: true });
  });

  test("runs: filters narrow the list; a fallback run's detail shows its trace, timeline, prompt and answer", async () => {
    await page.goto(`${dash.origin}/runs?status=failed`);
    expect(await page.locator("table.runs tbody tr").count()).toBe(1);
    await page.goto(`${dash.origin}/runs?agent=claude-opus`);
    const rows = page.locator("table.runs tbody tr");
    expect(await rows.count()).toBe(1);
    expect(await rows.first().innerText()).toContain("fell back");
    await rows.first().locator("a").first().click();
    await page.waitForURL(/\/runs\/\w+$/);
    const attempts = await page.locator("table.attempts").innerText();
    expect(attempts).toContain("claude-opus");
    expect(attempts).toContain("unavailable");
    expect(attempts).toContain("codex-main");
    // The attempt that served carries the model check, as a consultation turn does.
    expect(await page.locator("table.attempts tbody tr").nth(1).innerText()).toMatch(/gpt-5\.5\s+verified/);
    expect(await page.locator("#plot-timeline rect.pt").count()).toBe(2);
    expect(await page.locator("#prompt").innerText()).toContain("Refactor the parser for speed");
    expect(await page.locator("#answer").innerText()).toContain("PONG-FROM-FAKE");
    await page.screenshot({ path: join(shots, "run.png"), fullPage: true });
  });

  test("consultations: the list shows the model check; the detail shows every turn's envelope", async () => {
    await page.goto(`${dash.origin}/consultations`);
    const text = await page.locator("table.consultations").innerText();
    expect(text).toContain("verified");
    expect(text).toContain("configured_model_unavailable");
    await page.locator("table.consultations tbody tr a").last().click();
    await page.waitForURL(/\/consultations\/\w+$/);
    expect(await page.locator("#prompt-1").innerText()).toContain("trie or a hash map");
    expect(await page.locator("#answer-1").innerText()).toContain("answer");
  });

  test("jobs: the background route is listed and links to its run", async () => {
    await page.goto(`${dash.origin}/jobs`);
    const row = page.locator("table.jobs tbody tr").first();
    expect(await row.innerText()).toContain("route");
    await row.locator("a").first().click();
    await page.waitForURL(/\/jobs\/\w+$/);
    expect(await page.locator("#result").innerText()).toContain("PONG-FROM-FAKE");
  });

  test("reviews: the review is listed with its reviewer and findings; its page shows each finding's severity and disposition", async () => {
    await page.goto(`${dash.origin}/reviews`);
    const row = page.locator("table.reviews tbody tr");
    expect(await row.count()).toBe(1);
    expect(await row.first().innerText()).toContain("codex-main");
    await row.first().locator("a").first().click();
    await page.waitForURL(/\/reviews\/\w+$/);
    expect(await page.locator("table.reviewers").innerText()).toContain("answered");
    expect(await page.locator("table.findings tbody tr").count()).toBeGreaterThan(0);
    expect(await page.locator("table.findings").innerText()).toMatch(/F1[\s\S]*(critical|important|minor)[\s\S]*open/);
  });

  test("usage: every plot is there and the ones with data have points; per tier and per backend too", async () => {
    await page.goto(`${dash.origin}/usage?range=24h&by=agent`);
    for (const id of ["calls", "tokens", "cost", "latency", "rates", "agent-failures"]) expect(await page.locator(`#plot-${id}`).count()).toBe(1);
    expect(await page.locator("#plot-calls circle.pt").count()).toBeGreaterThan(0);
    expect(await page.locator("#plot-rates circle.pt").count()).toBeGreaterThan(0);
    expect(await page.locator("#plot-agent-failures rect.pt").count()).toBeGreaterThanOrEqual(2);
    expect(await page.locator('#plot-calls g.series[data-key="codex-main"] circle.pt').count()).toBeGreaterThan(0);
    await page.screenshot({ path: join(shots, "usage.png"), fullPage: true });
    await page.goto(`${dash.origin}/usage?range=7d&by=tier`);
    expect(await page.locator('#plot-calls g.series[data-key="consult"]').count()).toBe(1);
    await page.goto(`${dash.origin}/usage?range=30d&by=backend`);
    expect(await page.locator('#plot-calls g.series[data-key="opencode"]').count()).toBe(1);
  });

  test("live: a run started while the page is open appears as running, then as done, without a reload", async () => {
    await page.goto(`${dash.origin}/runs`);
    await page.waitForFunction(() => document.getElementById("live")?.textContent === "live");
    const before = await page.locator("table.runs tbody tr").count();
    const slow = Bun.spawn([BUN, MAIN, "run", "--tier", "light", "--cwd", world.box.repo, "A slow one"], { env: { ...world.box.env, FAKE_DELAY_MS: "2500" }, stdout: "ignore", stderr: "ignore" });
    await page.waitForFunction((n) => document.querySelectorAll("table.runs tbody tr").length === n + 1, before, { timeout: 20_000 });
    expect(await page.locator("table.runs tbody tr").first().innerText()).toContain("running");
    await page.waitForFunction(() => !document.querySelector("table.runs tbody tr")?.textContent?.includes("running"), undefined, { timeout: 30_000 });
    expect(await slow.exited).toBe(0);
    expect(await page.locator("table.runs tbody tr").first().innerText()).toContain("A slow one");
    const navigations = requested.filter((u) => u === `${dash.origin}/runs`).length;
    expect(navigations).toBeGreaterThanOrEqual(2);
  }, 60_000);

  test("no request ever left the page's own origin (no CDN, no font, no beacon)", () => {
    expect(requested.length).toBeGreaterThan(10);
    expect(requested.filter((u) => !u.startsWith(`${dash.origin}/`))).toEqual([]);
  });

  test("a browser without the token sees nothing; a foreign Host and a POST are refused", async () => {
    const stranger = await browser.newPage();
    const res = await stranger.goto(`${dash.origin}/runs`);
    expect(res?.status()).toBe(401);
    const body = await stranger.content();
    expect(body).not.toContain("Refactor");
    expect(body).not.toContain("codex-main");
    await stranger.close();
    const cookie = `orchestrate_dashboard_${dash.port}=${dash.token}`;
    const rebinding = await fetch(`${dash.origin}/runs`, { headers: { host: `attacker.example:${dash.port}`, cookie } });
    expect(rebinding.status).toBe(421);
    expect(await rebinding.text()).not.toContain("Refactor");
    const post = await fetch(`${dash.origin}/runs`, { method: "POST", headers: { cookie, origin: dash.origin } });
    expect(post.status).toBe(405);
    const framed = await fetch(`${dash.origin}/`, { headers: { cookie } });
    expect(framed.headers.get("x-frame-options")).toBe("DENY");
    expect(framed.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  });
});
