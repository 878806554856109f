/**
 * The dashboard's front door and its promise not to write: the guard's verdicts one by one, the
 * store left byte-identical by a full browse, loopback only even when asked otherwise, and the
 * pages' escaping of stored text. In-process over a store written through the store's own API.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { networkInterfaces } from "node:os";
import { existsSync, readFileSync, statSync } from "node:fs";
import { makeSandbox, type Sandbox } from "../../fakes/lib/sandbox.ts";
import { DEMO_CONFIG } from "../../fakes/lib/demo-world.ts";
import { guard, loopbackHost, SECURITY_HEADERS } from "../../src/dashboard/guard.ts";
import { startDashboard, type Dashboard } from "../../src/dashboard/server.ts";
import { openReadonlyRuntime } from "../../src/services/dashboard/index.ts";
import { PATCH_CAP } from "../../src/dashboard/pages/workflow-step.ts";
import { openStore } from "../../src/store/db.ts";
import type { WorkflowStore } from "../../src/store/index.ts";
import { startDashboardProcess } from "./world.ts";

const PORT = 41234;
const TOKEN = "t".repeat(32);
const req = (path: string, init: RequestInit & { host?: string } = {}) => {
  const headers = new Headers(init.headers);
  headers.set("host", init.host ?? `127.0.0.1:${PORT}`);
  return new Request(`http://127.0.0.1:${PORT}${path}`, { ...init, headers });
};
const withCookie = { cookie: `orchestrate_dashboard_${PORT}=${TOKEN}` };

describe("guard", () => {
  const settings = { token: TOKEN, port: PORT, editable: false };

  test("only a loopback Host on this port passes", () => {
    for (const ok of [`127.0.0.1:${PORT}`, `localhost:${PORT}`, `[::1]:${PORT}`, `LOCALHOST:${PORT}`]) expect(loopbackHost(ok, PORT)).toBe(true);
    for (const bad of [
      `evil.example:${PORT}`,
      `127.0.0.1.evil.example:${PORT}`,
      `127.0.0.1:${PORT + 1}`,
      "127.0.0.1",
      `192.168.1.5:${PORT}`,
      "",
      `localhost@evil:${PORT}`,
    ])
      expect(loopbackHost(bad, PORT)).toBe(false);
    expect(loopbackHost(null, PORT)).toBe(false);
  });

  test("a rebinding Host is refused before the token is even looked at", () => {
    const v = guard(req("/", { host: `attacker.example:${PORT}`, headers: withCookie }), settings);
    expect(v.pass).toBe(false);
    if (!v.pass) expect(v.response.status).toBe(421);
  });

  test("no token, a wrong token, or a wrong cookie: 401 and nothing else", async () => {
    for (const r of [
      req("/"),
      req("/?token=nope"),
      req("/", { headers: { cookie: `orchestrate_dashboard_${PORT}=${"x".repeat(32)}` } }),
      req("/", { headers: { cookie: `orchestrate_dashboard_1=${TOKEN}` } }),
    ]) {
      const v = guard(r, settings);
      expect(v.pass).toBe(false);
      if (!v.pass) {
        expect(v.response.status).toBe(401);
        expect(v.response.headers.get("x-frame-options")).toBe("DENY");
      }
    }
  });

  test("the URL token sets an HttpOnly SameSite=Strict cookie and redirects to the same page without it", () => {
    const v = guard(req(`/runs?status=ok&token=${TOKEN}`), settings);
    expect(v.pass).toBe(false);
    if (v.pass) return;
    expect(v.response.status).toBe(303);
    expect(v.response.headers.get("location")).toBe("/runs?status=ok");
    expect(v.response.headers.get("set-cookie")).toBe(`orchestrate_dashboard_${PORT}=${TOKEN}; HttpOnly; SameSite=Strict; Path=/`);
    expect(guard(req("/runs", { headers: withCookie }), settings).pass).toBe(true);
  });

  test("the redirect after the URL token stays on this origin: no protocol-relative Location", () => {
    for (const path of ["//evil.example/x", "///evil.example/x", "/\\evil.example/x", "//evil.example"]) {
      const v = guard(req(`${path}?token=${TOKEN}`), settings);
      if (v.pass) throw new Error("expected the redirect");
      const location = v.response.headers.get("location") ?? "";
      expect(location).toStartWith("/");
      expect(location).not.toMatch(/^\/[/\\]/);
      expect(new URL(location, `http://127.0.0.1:${PORT}`).host).toBe(`127.0.0.1:${PORT}`);
    }
  });

  test("read-only mode: every method but GET and HEAD is 405, even with the cookie", () => {
    for (const method of ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"]) {
      const v = guard(req("/edit/agents", { method, headers: { ...withCookie, origin: `http://127.0.0.1:${PORT}` } }), settings);
      expect(v.pass).toBe(false);
      if (!v.pass) expect(v.response.status).toBe(405);
    }
    expect(guard(req("/", { method: "HEAD", headers: withCookie }), settings).pass).toBe(true);
  });

  test("editable mode: a POST to /edit/ passes only from this origin", () => {
    const edit = { ...settings, editable: true };
    const post = (headers: Record<string, string>) => guard(req("/edit/agents", { method: "POST", headers: { ...withCookie, ...headers } }), edit);
    expect(post({ origin: `http://127.0.0.1:${PORT}`, "sec-fetch-site": "same-origin" }).pass).toBe(true);
    const refused: Record<string, string>[] = [
      {},
      { origin: "http://evil.example" },
      { origin: `http://127.0.0.1:${PORT}`, "sec-fetch-site": "cross-site" },
      { origin: "null" },
    ];
    for (const bad of refused) {
      const v = post(bad);
      expect(v.pass).toBe(false);
      if (!v.pass) expect(v.response.status).toBe(403);
    }
    const elsewhere = guard(req("/runs", { method: "POST", headers: { ...withCookie, origin: `http://127.0.0.1:${PORT}` } }), edit);
    expect(elsewhere.pass).toBe(false);
  });

  test("the CSP allows this origin only and no framing", () => {
    const csp = SECURITY_HEADERS["content-security-policy"] ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/https?:|unsafe-inline|unsafe-eval|\*/);
  });
});

const FAILED = { id: "" };

describe("a dashboard over a store", () => {
  let box: Sandbox;
  let dash: Dashboard;
  const hashes = () => [box.dbPath, `${box.dbPath}-wal`].filter(existsSync).map((p) => createHash("sha256").update(readFileSync(p)).digest("hex"));

  beforeAll(async () => {
    box = makeSandbox();
    box.writeConfig(DEMO_CONFIG);
    const store = openStore(box.dbPath);
    if (!store.ok) throw new Error(store.error.message);
    const runId = store.value.runs.startRun({
      tool: "route",
      tier: "light",
      cwd: box.repo,
      prompt: `<script>alert("x")</script> secret ghp_${"a1B2c3D4e5".repeat(4)}`,
    });
    store.value.runs.addAttempt({
      runId,
      n: 1,
      agentId: "cheap",
      backend: "opencode",
      provider: "deepseek",
      outcome: "ok",
      reason: "answered",
      exitCode: 0,
      durationMs: 40,
      fellBack: false,
      usage: { inputTokens: 10, outputTokens: 2, costUsd: 0.001 },
    });
    store.value.runs.finishRun(runId, { status: "ok", servedBy: "cheap", answer: "<img src=x onerror=alert(1)>" });
    // Older than the run above, so "the first run listed" stays that one.
    FAILED.id = store.value.runs.startRun({ tool: "route", tier: "standard", cwd: box.repo, prompt: "p", startedAt: Date.now() - 60_000 });
    store.value.runs.addAttempt({
      runId: FAILED.id,
      n: 1,
      agentId: "codex-main",
      backend: "codex",
      provider: "openai",
      outcome: "auth",
      reason: "unavailable",
      exitCode: null,
      durationMs: 30,
      fellBack: true,
    });
    store.value.runs.addAttempt({
      runId: FAILED.id,
      n: 2,
      agentId: "cheap",
      backend: "opencode",
      provider: "deepseek",
      outcome: "capacity",
      reason: "unexpected status 500 Internal Server Error",
      exitCode: 1,
      durationMs: 30,
      fellBack: false,
    });
    store.value.runs.addAttempt({
      runId: FAILED.id,
      n: 3,
      agentId: "claude-opus",
      backend: "claude",
      provider: "anthropic",
      outcome: "skipped",
      reason: "heavy: would cross from provider openai to anthropic; set allowCrossProviderFallback: true to allow",
      exitCode: null,
      durationMs: 0,
      fellBack: false,
    });
    store.value.runs.finishRun(FAILED.id, {
      status: "failed",
      errorCode: "unavailable",
      errorMessage: "Attempt 2 (standard:cheap) ended unavailable: unavailable. No fallback: no more candidates.",
    });
    storedWorkflow(store.value.workflows);
    ASK.id = store.value.asks.record({
      capability: "fast",
      status: "ok",
      model: "openai/gpt-x",
      host: "127.0.0.1:9",
      fallbackUsed: false,
      latencyMs: 12,
      prompt: `<script>alert("ask")</script> ghp_${"f6G7h8I9j0".repeat(4)}`,
      answer: "<img src=y onerror=alert(2)>",
      legs: [{ capability: "fast", model: "openai/gpt-x", host: "127.0.0.1:9", outcome: "ok", statusCode: 200, latencyMs: 12, retry: 0, endedAt: Date.now() }],
    });
    const leg = (n: number, outcome: "ok" | "failed", errorCode?: string, status = 429) => ({
      capability: "fast",
      model: `m-${n}`,
      host: "127.0.0.1:9",
      outcome,
      ...(errorCode ? { errorCode } : {}),
      statusCode: outcome === "ok" ? 200 : status,
      latencyMs: 5,
      retry: 0,
      endedAt: Date.now(),
    });
    ASK.fellBack = store.value.asks.record({
      capability: "fast",
      status: "ok",
      model: "m-4",
      host: "127.0.0.1:9",
      fallbackUsed: true,
      latencyMs: 20,
      prompt: "q",
      answer: "a",
      legs: [
        leg(1, "failed", "auth", 401),
        leg(2, "failed", "rate_limited"),
        leg(3, "failed", "bad_request", 400),
        leg(4, "failed", "server", 503),
        leg(5, "ok"),
      ],
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

  const get = (path: string) => fetch(`http://127.0.0.1:${dash.port}${path}`, { headers: { cookie: `orchestrate_dashboard_${dash.port}=${dash.token}` } });

  test("binds 127.0.0.1; a fresh token per process in the URL", () => {
    expect(dash.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${dash.port}/\\?token=dsh_[\\w-]{32}$`));
  });

  test("browsing every page leaves the store's bytes as they were (opened read-only)", async () => {
    const before = hashes();
    const run = (await (await get("/runs")).text()).match(/\/runs\/(\w+)/)?.[1] ?? "";
    for (const path of [
      "/",
      "/runs",
      `/runs/${run}`,
      "/consultations",
      "/jobs",
      "/usage",
      "/usage?range=90d&by=tier",
      "/workflows",
      `/workflows/${WORKFLOW}`,
      "/asks",
      "/asks?status=ok&capability=fast",
      `/asks/${ASK.id}`,
      "/nope",
      "/runs/NOPE",
      "/workflows/NOPE",
      "/asks/NOPE",
    ]) {
      const res = await get(path);
      expect(res.status).toBe(path.includes("NOPE") || path === "/nope" ? 404 : 200);
      await res.text();
    }
    expect(hashes()).toEqual(before);
  });

  test("stored text is escaped; the redactor ran before insert", async () => {
    const run = (await (await get("/runs")).text()).match(/\/runs\/(\w+)/)?.[1] ?? "";
    const page = await (await get(`/runs/${run}`)).text();
    expect(page).not.toContain("<script>alert");
    expect(page).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    expect(page).not.toContain("<img src=x");
    expect(page).not.toContain("a1B2c3D4e5a1B2c3D4e5");
  });

  test("a failed run's page says each attempt's class in words with its fix, and each skipped entry's rule", async () => {
    const page = await (await get(`/runs/${FAILED.id}`)).text();
    const trace = page.slice(page.indexOf('<table class="attempts">'), page.indexOf("</table>", page.indexOf('<table class="attempts">')));
    expect(trace).toContain(">not signed in<");
    expect(trace).toContain("<code>codex login</code>");
    expect(trace).toContain(">provider error 500<");
    expect(trace).toContain("would cross from provider openai to anthropic");
    // The provider's own error is no sign-in problem: one login hint, codex's.
    expect(trace.match(/login/g)).toHaveLength(1);
    expect(await (await get("/runs")).text()).toMatch(new RegExp(`${FAILED.id}[\\s\\S]*?<td>2 <span`));
  });

  test("an ask's stored prompt and answer are escaped on its page, and the list links to it", async () => {
    expect(await (await get("/asks")).text()).toContain(`href="/asks/${ASK.id}"`);
    const page = await (await get(`/asks/${ASK.id}`)).text();
    expect(page).not.toContain("<script>alert");
    expect(page).toContain("&lt;script&gt;alert(&quot;ask&quot;)&lt;/script&gt;");
    expect(page).not.toContain("<img src=y");
    expect(page).not.toContain("f6G7h8I9j0f6G7h8I9j0");
  });

  test("an ask's legs word a deployment failure as the run page words an attempt's (failure words), never 'unavailable'", async () => {
    const page = await (await get(`/asks/${ASK.fellBack}`)).text();
    const legs = page.slice(page.indexOf('<table class="legs">'), page.indexOf("</table>", page.indexOf('<table class="legs">')));
    expect(legs).toContain('<span class="why">not signed in</span>');
    expect(legs).toContain('<span class="why">rate-limited</span>');
    expect(legs).toContain('<span class="why">provider error 503</span>');
    expect(legs).not.toContain(">unavailable<");
    expect(legs).toContain('<span class="why">bad_request</span>');
    expect(legs).not.toContain(">auth<");
    expect(legs).not.toContain(">rate_limited<");
  });

  test("a workflow's huge patch is cut with a note and escaped; the overview counts it as needing attention", async () => {
    const detail = await (await get(`/workflows/${WORKFLOW}`)).text();
    expect(detail).toContain(`Showing the first ${PATCH_CAP.toLocaleString("en")} of ${HUGE_PATCH.length.toLocaleString("en")} characters.`);
    expect(detail).not.toContain("<script>alert");
    expect(detail).toContain("+&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(detail).not.toContain(HUGE_PATCH.slice(0, PATCH_CAP + 1));
    expect(detail).toContain("needs attention");
    const overview = await (await get("/")).text();
    expect(overview).toMatch(/id="card-attention"><a href="\/workflows\?status=needs_attention">1<\/a>/);
    const list = await (await get("/workflows?status=needs_attention")).text();
    expect(list).toContain(`/workflows/${WORKFLOW}`);
    expect(await (await get("/workflows?status=completed")).text()).not.toContain(`/workflows/${WORKFLOW}`);
  });

  test("pages report their server time", async () => {
    const res = await get("/");
    expect(res.headers.get("server-timing")).toMatch(/^app;dur=\d+(\.\d+)?$/);
  });
});

const WORKFLOW = "wf-stored";
/** The stored ask's id, known once the store is filled. */
const ASK = { id: "", fellBack: "" };
const HUGE_PATCH = `diff --git a/x.html b/x.html\n--- a/x.html\n+++ b/x.html\n@@ -0,0 +1 @@\n+<script>alert(1)</script>\n${"+filler line\n".repeat(8000)}`;

/** A workflow stopped at its cap, whose implement step produced a diff longer than a page shows. */
function storedWorkflow(workflows: WorkflowStore): void {
  workflows.create({
    id: WORKFLOW,
    goal: "Rewrite x.html",
    workdir: "/p/repo",
    commit: "a".repeat(40),
    snapshot: {
      bindings: { implement: { kind: "agent", agent: "cheap", backend: "opencode", model: null, execution: "patch" } },
      policy: { maxFixRounds: 1 },
      host: {},
    },
    now: 1,
  });
  workflows.addStep(
    {
      id: "st-1",
      workflowId: WORKFLOW,
      step: "implement",
      round: 0,
      executor: "agent",
      agentId: "cheap",
      execution: "patch",
      preview: {},
      context: "",
      promptSha256: "p",
      token: { sha256: "t", binding: "b", expiresAt: 10 },
      commitBefore: "a".repeat(40),
    },
    2,
  );
  workflows.finishStep("st-1", { status: "awaiting_host_apply", result: { patch: HUGE_PATCH, summary: "Rewrites x.html", mode: "patch" } }, 3);
  workflows.update(WORKFLOW, { status: "needs_attention" }, 4);
}

describe("orchestrate dashboard (the command)", () => {
  test("--host 0.0.0.0 is ignored with a notice: it still serves 127.0.0.1 only", async () => {
    const box = makeSandbox();
    box.writeConfig(DEMO_CONFIG);
    const store = openStore(box.dbPath);
    if (store.ok) store.value.close();
    const dash = await startDashboardProcess(box.env, ["--host", "0.0.0.0"]);
    try {
      expect(dash.origin).toBe(`http://127.0.0.1:${dash.port}`);
      expect(dash.stderr()).toContain("binds 127.0.0.1 only");
      const external = Object.values(networkInterfaces())
        .flat()
        .find((i) => i && i.family === "IPv4" && !i.internal);
      if (external) await expect(fetch(`http://${external.address}:${dash.port}/`)).rejects.toThrow();
      expect((await fetch(`${dash.origin}/`)).status).toBe(401);
    } finally {
      await dash.stop();
      box.cleanup();
    }
  });

  test("a fresh machine (no config, no store): it starts, creates the empty store 0600, and every page shows its empty state", async () => {
    const box = makeSandbox();
    // No ORCHESTRATE_CONFIG: a named file that is missing is an error, no file at all is the zero config.
    const env = Object.fromEntries(Object.entries(box.env).filter(([k]) => k !== "ORCHESTRATE_CONFIG"));
    const dash = await startDashboardProcess(env);
    try {
      expect(statSync(box.dbPath).mode & 0o777).toBe(0o600);
      const cookie = { cookie: `orchestrate_dashboard_${dash.port}=${dash.token}` };
      const get = async (path: string) => {
        const res = await fetch(`${dash.origin}${path}`, { headers: cookie });
        expect(res.status).toBe(200);
        return res.text();
      };
      const overview = await get("/");
      expect(overview).toContain("No agents configured");
      expect(overview).toContain("No runs stored yet.");
      for (const path of ["/runs", "/consultations", "/asks", "/jobs", "/reviews", "/workflows", "/usage"]) await get(path);
      expect(await get("/usage")).toContain("no data in this window");
      expect(dash.stderr()).not.toContain("permissions");
    } finally {
      await dash.stop();
      box.cleanup();
    }
  });

  test("a read-only open of a store that is not there says nothing has run yet, not to check permissions", () => {
    const box = makeSandbox();
    try {
      const missing = openStore(box.dbPath, { readonly: true });
      expect(missing.ok).toBe(false);
      if (missing.ok) return;
      expect(missing.error.message).toContain("nothing has run on this machine");
      expect(missing.error.hint ?? "").not.toContain("permissions");
      expect(existsSync(box.dbPath)).toBe(false);
    } finally {
      box.cleanup();
    }
  });
});
