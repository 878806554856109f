/**
 * The dashboard in a real headless Chromium (Debian's, driven by playwright-core), over a store
 * filled by real routed and consulted runs and a workflow through the fakes: every page renders
 * with data, the plots have points, the live view picks up a run while it is in progress, refusals
 * hold, and no request ever leaves the page's own origin. .ci/run installs chromium; only a
 * machine where it truly cannot be installed skips, and says so.
 *
 * DASHBOARD_SCREENSHOTS=1 writes docs/dashboard/{overview,run,usage,workflow}.png from this same
 * world: `DASHBOARD_SCREENSHOTS=1 npx bun test test/dashboard/browser.test.ts`.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { makeSandbox, REPO_ROOT } from "../../fakes/lib/sandbox.ts";
import { BUN, MAIN } from "../setup/helpers.ts";
/** The page's own globals, for the functions playwright runs inside Chromium (the suite's lib has no DOM). */
interface El {
  textContent: string | null;
  getAttribute(name: string): string | null;
  getBoundingClientRect(): { x: number; y: number; width: number; height: number };
  scrollIntoView(opts: { block: string; inline: string }): void;
  closest(q: string): El | null;
  querySelectorAll(q: string): Iterable<El> & { length: number };
}
declare const document: {
  getElementById(id: string): El | null;
  querySelector(q: string): El | null;
  querySelectorAll(q: string): Iterable<El> & { length: number };
  elementFromPoint(x: number, y: number): El | null;
  documentElement: { scrollWidth: number; clientWidth: number };
};

import { filledWorld, startDashboardProcess, type DashboardProcess, type Filled } from "./world.ts";

/** A plot's y axis as drawn: each tick's label and height (the labels right-aligned left of the plot), each gridline's height, each point's value and height. */
async function axisOf(p: Page, id: string): Promise<{ ticks: { label: string; y: number }[]; grid: number[]; points: { value: number; y: number }[] }> {
  return p.evaluate((plot) => {
    const svg = document.getElementById(`plot-${plot}`);
    if (!svg) throw new Error(`no plot ${plot}`);
    const num = (e: El, a: string) => Number(e.getAttribute(a));
    return {
      ticks: [...svg.querySelectorAll('text.tick[text-anchor="end"]')].map((t) => ({ label: t.textContent ?? "", y: num(t, "y") })),
      grid: [...svg.querySelectorAll("line.grid")].map((l) => num(l, "y1")),
      points: [...svg.querySelectorAll("circle.pt")].map((c) => ({ value: num(c, "data-y"), y: num(c, "cy") })),
    };
  }, id);
}

/**
 * A count axis: distinct whole-number labels, each on a gridline, all on one linear scale — the
 * scale the points are drawn on. Labels 0, 1, 3, 4, 5 on evenly spaced gridlines fail: 1 sits where 1.25 is.
 */
function expectHonestCountAxis(axis: Awaited<ReturnType<typeof axisOf>>): void {
  const labels = axis.ticks.map((t) => Number(t.label));
  expect(labels.every((n) => Number.isInteger(n))).toBe(true);
  expect(new Set(labels).size).toBe(labels.length);
  expect(axis.ticks.map((t) => t.y)).toEqual(axis.grid);
  const [first, last] = [axis.ticks[0], axis.ticks[axis.ticks.length - 1]];
  if (!first || !last || first === last) throw new Error("an axis needs two ticks");
  const yOf = (v: number) => first.y + ((v - Number(first.label)) / (Number(last.label) - Number(first.label))) * (last.y - first.y);
  for (const t of axis.ticks) expect({ label: t.label, off: Math.abs(t.y - yOf(Number(t.label))) < 0.2 }).toEqual({ label: t.label, off: true });
  for (const pt of axis.points) expect(Math.abs(pt.y - yOf(pt.value))).toBeLessThan(0.2);
}

/** Series keys of a plot none of whose points is on top at its own centre (hidden under another series). */
async function hiddenSeries(p: Page, id: string): Promise<string[]> {
  return p.evaluate((plot) => {
    const hidden: string[] = [];
    for (const g of document.querySelectorAll(`#plot-${plot} g.series`)) {
      const key = g.getAttribute("data-key") ?? "";
      const seen = [...g.querySelectorAll("circle.pt")].some((c) => {
        c.scrollIntoView({ block: "center", inline: "center" });
        const r = c.getBoundingClientRect();
        return (
          document
            .elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)
            ?.closest("g.series")
            ?.getAttribute("data-key") === key
        );
      });
      if (!seen) hidden.push(key);
    }
    return hidden;
  }, id);
}

const CHROMIUM = "/usr/bin/chromium";
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
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

  test("the world holds what the pages will show: two served runs, one failed, two consultations, a workflow with its patch and review", () => {
    expect(world.codes).toEqual([0, 0, 1, 0, 1]);
    expect(world.workflow.patch).toContain("diff --git");
    expect(world.workflow.reviewId).not.toBe("");
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
    // Under HOME, shown as ~/…: the screenshot carries no machine path.
    expect(agents).toContain("~/.local/bin/codex");
    expect(agents).not.toContain(world.box.home);
    expect(agents).toMatch(/codex-main\s+codex\s+gpt-5\.5\s+openai\s+\d+\.\d+/);
    // Its quota as codex's rollout reported it: the window, how much is used, when it resets.
    expect(agents).toMatch(/codex-main[^\n]*\bok\s+5h 60 % used\s+resets in \d+ min \d+ s/);
    expect(agents).toMatch(/claude-opus[^\n]*none reported/);
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
    // The person-facing page says the class in words (docs/failures.md); MCP replies keep 'unavailable'.
    expect(attempts).toContain("rate-limited");
    expect(attempts).toContain("codex-main");
    // The attempt that served carries the model check, as a consultation turn does.
    expect(await page.locator("table.attempts tbody tr").nth(1).innerText()).toMatch(/gpt-5\.5\s+verified/);
    expect(await page.locator("#plot-timeline rect.pt").count()).toBe(2);
    expect(await page.locator("#prompt").innerText()).toContain("Refactor the parser for speed");
    expect(await page.locator("dl.facts").innerText()).toContain("~/Projects/repo");
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

  test("asks: the list shows capability, status, model, latency and tokens and filters by status and capability; the detail shows every leg and the redacted prompt and answer", async () => {
    const { capability, servedModel, prompt } = world.asks;
    await page.goto(`${dash.origin}/asks`);
    expect(await page.locator("nav a[href='/asks']").getAttribute("aria-current")).toBe("page");
    expect(await page.locator("table.asks tbody tr").count()).toBe(2);
    const text = await page.locator("table.asks").innerText();
    expect(text).toContain(servedModel);
    expect(text).toContain("content_filtered");
    expect(text).toMatch(/10 \/ 20/);
    await page.goto(`${dash.origin}/asks?status=failed`);
    expect(await page.locator("table.asks tbody tr").count()).toBe(1);
    await page.goto(`${dash.origin}/asks?capability=nope`);
    expect(await page.locator("table.asks").count()).toBe(0);
    await page.goto(`${dash.origin}/asks?status=ok&capability=${capability}`);
    await page.locator("table.asks tbody tr a").first().click();
    await page.waitForURL(/\/asks\/\w+$/);
    const legs = await page.locator("table.legs tbody tr").allInnerTexts();
    expect(legs).toHaveLength(2);
    expect(legs[0]).toMatch(/openai\/gpt-world\s[\s\S]*failed\s+rate-limited\s+429/);
    expect(legs[0]).not.toContain("rate_limited");
    expect(legs[1]).toMatch(/gpt-world-backup[\s\S]*ok[\s\S]*200/);
    expect(await page.locator("#prompt").innerText()).toBe(prompt);
    expect(await page.locator("#system").innerText()).toBe("Be brief.");
    expect(await page.locator("#answer").innerText()).toContain("LRU map");
  });

  test("jobs: the background route is listed and links to its run", async () => {
    await page.goto(`${dash.origin}/jobs?kind=route`);
    const row = page.locator("table.jobs tbody tr").first();
    expect(await row.innerText()).toContain("route");
    expect(await row.locator("a.ref").getAttribute("href")).toMatch(/^\/runs\/\w+$/);
    await row.locator("a").first().click();
    await page.waitForURL(/\/jobs\/\w+$/);
    expect(await page.locator("#result").innerText()).toContain("PONG-FROM-FAKE");
  });

  test("jobs: the kind filter offers every kind the store has; review and workflow-step jobs link to their pages", async () => {
    await page.goto(`${dash.origin}/jobs`);
    expect(await page.locator('select[name="kind"] option').allInnerTexts()).toEqual(["any", "route", "consult", "review", "workflow_step", "ask"]);
    await page.goto(`${dash.origin}/jobs?kind=workflow_step`);
    const steps = page.locator("table.jobs tbody tr");
    // implement and review ran as workflow_step jobs; the host's steps are not jobs.
    expect(await steps.count()).toBe(2);
    for (const href of await steps.locator("a.ref").evaluateAll((links) => links.map((a) => a.getAttribute("href"))))
      expect(href).toBe(`/workflows/${world.workflow.id}`);
    await page.goto(`${dash.origin}/jobs?kind=review`);
    const reviews = page.locator("table.jobs tbody tr a.ref");
    expect(await reviews.count()).toBeGreaterThanOrEqual(1);
    expect(await reviews.first().getAttribute("href")).toMatch(/^\/reviews\/\w+$/);
    await page.goto(`${dash.origin}/jobs?kind=workflow_step`);
    await page.locator("table.jobs tbody tr a").first().click();
    await page.waitForURL(/\/jobs\/\w+$/);
    expect(await page.locator("dl.facts a.ref").getAttribute("href")).toBe(`/workflows/${world.workflow.id}`);
  });

  test("workflows: the list filters by status; the detail shows bindings, loop checks, every step, the patch, the ignored files and the test report", async () => {
    await page.goto(`${dash.origin}/workflows`);
    expect(await page.locator("table.workflows tbody tr").count()).toBe(2);
    await page.goto(`${dash.origin}/workflows?status=cancelled`);
    const cancelled = page.locator("table.workflows tbody tr");
    expect(await cancelled.count()).toBe(1);
    expect(await cancelled.first().innerText()).toContain("A second thought");
    await page.goto(`${dash.origin}/workflows?status=active`);
    await page.locator("table.workflows tbody tr a").first().click();
    await page.waitForURL(new RegExp(`/workflows/${world.workflow.id}$`));
    expect(await page.locator("#goal").innerText()).toBe("Add a greeting to the README");
    const steps = await page.locator("table.steps tbody tr").allInnerTexts();
    expect(steps.map((r) => r.split("\t")[1])).toEqual(["research", "plan", "author_execution_prompt", "implement", "apply_patch", "test", "review"]);
    expect(steps[3]).toMatch(/implement\s+0\s+awaiting_host_apply\s+codex-main\s+isolated_write/);
    expect(steps[6]).toMatch(/review\s+0\s+succeeded\s+reviewers\s+review/);
    expect(await page.locator("table.bindings").innerText()).toMatch(/implement\s+agent\s+codex-main[\s\S]*isolated_write/);
    expect(await page.locator("table.loop-checks").innerText()).toMatch(/tests passed for current commit\s+yes[\s\S]*review finalized\s+no/);
    // The diff exactly as stored, shown as text; the ignored file is listed beside it, not in it.
    expect(await page.locator("#patch-4").innerText()).toBe(world.workflow.patch);
    expect(world.workflow.patch).toContain("NEW_FILE.txt");
    expect(await page.locator("table.files-4").innerText()).toContain("DELETE_ME.txt");
    expect(await page.locator("#ignored-4").innerText()).toContain("ignored/");
    const report = await page.locator("#report-6").innerText();
    expect(report).toMatch(/command\s+bun test/);
    expect(report).toMatch(/exit code\s+0/);
    expect(report).toMatch(/reported by\s+host/);
    expect(report).toMatch(/duration\s+1\.2 s/);
    expect(report).toMatch(/commit\s+[0-9a-f]{40}/);
    // Output a CLI printed is text on the page, never markup: the only script is the page's own.
    expect(await page.locator("#output-6").innerText()).toBe(world.workflow.testOutput);
    expect(await page.locator("script").count()).toBe(1);
    expect(await page.locator("#step-7 a.review-link").getAttribute("href")).toBe(`/reviews/${world.workflow.reviewId}`);
    await page.screenshot({ path: join(shots, "workflow.png"), fullPage: true });
    await page.locator("#step-7 a.review-link").click();
    await page.waitForURL(/\/reviews\/\w+$/);
    expect(await page.locator("table.reviewers").innerText()).toContain("cheap");
  });

  test("reviews: the review is listed with its reviewer and findings; its page shows each finding's severity and disposition", async () => {
    await page.goto(`${dash.origin}/reviews`);
    // The review asked over MCP, and the workflow's review step (reviewed by cheap).
    expect(await page.locator("table.reviews tbody tr").count()).toBe(2);
    const row = page.locator("table.reviews tbody tr", { hasText: "codex-main" });
    expect(await row.count()).toBe(1);
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
    expectHonestCountAxis(await axisOf(page, "calls"));
    // The asks count under their capability, their own tier series and the http backend.
    expect(await page.locator(`#plot-calls g.series[data-key="${world.asks.capability}"] circle.pt`).count()).toBeGreaterThan(0);
    await page.goto(`${dash.origin}/usage?range=7d&by=tier`);
    expect(await page.locator('#plot-calls g.series[data-key="consult"]').count()).toBe(1);
    expect(await page.locator('#plot-calls g.series[data-key="ask"]').count()).toBe(1);
    await page.goto(`${dash.origin}/usage?range=30d&by=backend`);
    expect(await page.locator('#plot-calls g.series[data-key="opencode"]').count()).toBe(1);
    expect(await page.locator('#plot-tokens g.series[data-key="http"]').count()).toBe(1);
  });

  test("usage: tick labels are the values their gridlines stand at; equal values in one bucket still show every series; failure bars are coloured by rate", async () => {
    for (const by of ["agent", "tier", "backend"]) {
      await page.goto(`${dash.origin}/usage?range=24h&by=${by}`);
      expectHonestCountAxis(await axisOf(page, "calls"));
      // The world's calls land in one hour, several series at the same count.
      expect(await page.locator("#plot-calls g.series").count()).toBeGreaterThanOrEqual(3);
      for (const plot of ["calls", "tokens", "cost", "latency"]) expect({ plot, by, hidden: await hiddenSeries(page, plot) }).toEqual({ plot, by, hidden: [] });
      for (const plot of ["tokens", "cost", "latency", "rates"])
        expect((await axisOf(page, plot)).ticks.map((t) => t.y)).toEqual((await axisOf(page, plot)).grid);
    }
    const bars = await page
      .locator("#plot-agent-failures rect.pt")
      .evaluateAll((rects) => rects.map((r) => ({ rate: Number(r.getAttribute("data-y")), fill: r.getAttribute("fill") })));
    expect(bars.some((b) => b.rate === 1)).toBe(true);
    for (const b of bars) expect(b.fill).toBe(b.rate === 0 ? "#16a34a" : b.rate <= 0.2 ? "#d97706" : "#dc2626");
  });

  test("the overview fits a 1400 px window: a table too wide for it scrolls inside its own box, not the page", async () => {
    // An unbreakable model id makes the agents table far wider than the window.
    const wide = makeSandbox();
    wide.writeConfig(`agents:\n  long-one:\n    backend: codex\n    model: gpt-${"x".repeat(260)}\ntiers:\n  light: [long-one]\n`);
    const dashWide = await startDashboardProcess(wide.env);
    const tab = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    try {
      await tab.goto(dashWide.url);
      expect(await tab.locator("table.agents").innerText()).toContain("x".repeat(260));
      const size = await tab.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
      expect(size.scroll).toBeLessThanOrEqual(size.client);
    } finally {
      await tab.close();
      await dashWide.stop();
      wide.cleanup();
    }
  });

  test("reviews list: a critical column, counted even when zero; a finished job shows how it ended, not its last progress line", async () => {
    await page.goto(`${dash.origin}/reviews`);
    const head = await page.locator("table.reviews thead th").allInnerTexts();
    expect(head.slice(4, 7).map((h) => h.toLowerCase())).toEqual(["critical", "important", "minor"]);
    for (const row of await page.locator("table.reviews tbody tr").all()) expect(await row.locator("td").nth(4).innerText()).toMatch(/^\d+$/);
    await page.goto(`${dash.origin}/jobs?status=ok`);
    const finished = page.locator("table.jobs tbody tr").first();
    expect(await finished.locator("td").nth(3).innerText()).toMatch(/^done after \d/);
    await finished.locator("a").first().click();
    await page.waitForURL(/\/jobs\/\w+$/);
    expect(await page.locator("dl.facts").innerText()).toMatch(/ended\s+done after/);
  });

  test("a fresh machine: no config and no store yet — the dashboard starts, and every page shows its empty state", async () => {
    const fresh = makeSandbox();
    const env = Object.fromEntries(Object.entries(fresh.env).filter(([k]) => k !== "ORCHESTRATE_CONFIG"));
    const empty = await startDashboardProcess(env);
    const tab = await browser.newPage({ viewport: { width: 1360, height: 900 } });
    try {
      await tab.goto(empty.url);
      expect(await tab.locator("main").innerText()).toContain("No agents configured");
      expect(await tab.locator("main").innerText()).toContain("No runs stored yet.");
      for (const path of ["/runs", "/consultations", "/asks", "/jobs", "/reviews", "/workflows"]) {
        const res = await tab.goto(`${empty.origin}${path}`);
        expect(res?.status()).toBe(200);
        expect(await tab.locator("p.empty").count()).toBeGreaterThan(0);
      }
      await tab.goto(`${empty.origin}/usage`);
      expect(await tab.locator("#plot-calls").textContent()).toContain("no data in this window");
      const axis = await axisOf(tab, "calls");
      expect(axis.ticks.map((t) => t.label)).toEqual(["0", "1"]);
      expectHonestCountAxis(axis);
    } finally {
      await tab.close();
      await empty.stop();
      fresh.cleanup();
    }
  });

  test("live: a run started while the page is open appears as running, then as done, without a reload", async () => {
    await page.goto(`${dash.origin}/runs`);
    await page.waitForFunction(() => document.getElementById("live")?.textContent === "live");
    const before = await page.locator("table.runs tbody tr").count();
    const slow = Bun.spawn([BUN, MAIN, "run", "--tier", "light", "--cwd", world.box.repo, "A slow one"], {
      env: { ...world.box.env, FAKE_DELAY_MS: "2500" },
      stdout: "ignore",
      stderr: "ignore",
    });
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
