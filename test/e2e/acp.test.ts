/**
 * ACP agents end to end: a real MCP client over stdio, the real server, fakes/acp (the SDK's agent
 * side) as the agent, real git and SQLite. The point is the whole path from a config entry — an
 * agent known only by its ACP launch, and a known backend switched to `transport: acp` — to a
 * routed task, a consultation that resumes its session, a fallback and a fail-closed turn.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { textOf, type ToolReply } from "../../fakes/lib/mcp-client.ts";
import type { Recording } from "../../fakes/lib/sandbox.ts";
import { openStore } from "../../src/store/db.ts";
import { openWorld, type World } from "../helpers/world.ts";
import { call, envOf } from "./consult-helpers.ts";

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

type Received = { method: string; params: Record<string, unknown> };
const received = (recs: Recording[]): Received[] => recs.flatMap((r) => (r as unknown as { received: Received[] }).received ?? []);

/** A ninth agent by config alone: its launch command, its provider, nothing else. */
const NINTH = (extra = "") => `agents:
  q:
    backend: acp
    provider: qwen
    command: [acp, --acp]
    scores: { coding: 80 }
${extra}  g:
    backend: gemini
    model: gemini-2.5-pro
tiers:
  light: null
  standard: null
  heavy: [q, g]
allowCrossProviderFallback: true
`;

const route = (w: World, timeoutSec = 60) => call(w.session, "route", { prompt: "do the thing", cwd: w.box.repo, tier: "heavy", timeoutSec });

describe("an ACP agent from config alone", () => {
  test("routes: served by it, over ACP, in the repo, with no MCP servers passed", async () => {
    world = await openWorld(NINTH());
    const reply = await route(world);
    expect(reply.isError).toBeFalsy();
    expect(reply.structuredContent?.servedBy).toMatchObject({ agent: "q", backend: "acp", provider: "qwen" });
    expect(textOf(reply)).toContain("PONG-FROM-FAKE");
    const [rec] = world.box.recordings("acp");
    expect(rec?.argv).toEqual(["--acp"]);
    expect(rec?.cwd).toBe(world.box.repo);
    expect(received([rec as Recording]).find((m) => m.method === "session/new")?.params).toEqual({ cwd: world.box.repo, mcpServers: [] });
  });

  test("a rate limit before anything acted falls back, the tree byte-identical", async () => {
    world = await openWorld(NINTH(), { FAKE_ACP_SCENARIO: "rate-limit" });
    const reply = await route(world);
    expect(reply.isError).toBeFalsy();
    const attempts = (reply.structuredContent?.attempts ?? []) as { agent: string; outcome: string; fellBack: boolean }[];
    expect(attempts[0]).toMatchObject({ agent: "q", fellBack: true });
    expect(reply.structuredContent?.servedBy).toMatchObject({ agent: "g", backend: "gemini" });
  });

  test("consult answers answer-only and a follow-up loads the same ACP session", async () => {
    world = await openWorld(NINTH(), { ORCHESTRATE_HOST_RUNTIME: "claude" });
    const first = envOf(await call(world.session, "consult", { prompt: "Is this loop correct?", capability: "coding", agent: "q" }));
    expect(first).toMatchObject({ ok: true, agent: "q", backend: "acp", model_verification: "unverified" });
    expect(first.content).toMatchObject({ answer: "PONG-FROM-FAKE" });
    const again = envOf(await call(world.session, "consult", { prompt: "And the edge case?", capability: "coding", consultation_id: first.consultation_id }));
    expect(again).toMatchObject({ ok: true, consultation_id: first.consultation_id });
    expect(again.content?.answer).toMatch(/^PONG-FROM-FAKE \(earlier: /);
    const loads = received(world.box.recordings("acp")).filter((m) => m.method === "session/load");
    expect(loads).toHaveLength(1);
  });

  test("consult fails closed on an acting tool call the agent never asked about; the answer is discarded", async () => {
    world = await openWorld(NINTH(), { ORCHESTRATE_HOST_RUNTIME: "claude", FAKE_ACP_SCENARIO: "act-unasked", FAKE_ACT_DELAY_MS: "5000" });
    const reply = envOf(await call(world.session, "consult", { prompt: "Is this loop correct?", capability: "coding", agent: "q" }));
    expect(reply).toMatchObject({ ok: false, error: { code: "action_attempted" } });
    expect(reply.content ?? null).toBeNull();
  });

  test("signed out: auth_required, with the agent's own sign-in command", async () => {
    world = await openWorld(NINTH(), { ORCHESTRATE_HOST_RUNTIME: "claude", FAKE_ACP_SCENARIO: "auth" });
    const reply = envOf(await call(world.session, "consult", { prompt: "Is this loop correct?", capability: "coding", agent: "q" }));
    expect(reply).toMatchObject({ ok: false, error: { code: "auth_required" } });
    expect(reply.error?.hint).toContain("fake-agent login");
  });
});

describe("a known backend with transport: acp", () => {
  test("copilot over ACP: its launch, its isolation switches, allow_all off, and its failed end_turn falls back", async () => {
    const config = `agents:
  c:
    backend: copilot
    transport: acp
    command: acp
    model: gpt-5
  g:
    backend: gemini
    model: gemini-2.5-pro
tiers:
  light: null
  standard: null
  heavy: [c, g]
allowCrossProviderFallback: true
`;
    world = await openWorld(config, { FAKE_ACP_SCENARIO: "rate-limit-text" });
    const reply = await route(world);
    const attempts = (reply.structuredContent?.attempts ?? []) as { agent: string; fellBack: boolean }[];
    expect(attempts[0]).toMatchObject({ agent: "c", fellBack: true });
    expect(reply.structuredContent?.servedBy).toMatchObject({ agent: "g" });
    const [rec] = world.box.recordings("acp");
    expect(rec?.argv).toEqual(["--acp", "--no-auto-update", "--disable-builtin-mcps"]);
    expect(rec?.env.COPILOT_ALLOW_ALL).toBeUndefined();
    expect(received([rec as Recording]).find((m) => m.method === "session/set_model")?.params).toMatchObject({ modelId: "gpt-5" });
  });

  test("gemini over ACP: the served model from _meta is verified against the configured one", async () => {
    const config = `agents:
  g:
    backend: gemini
    transport: acp
    command: acp
    model: gemini-2.5-pro
    scores: { coding: 80 }
tiers: { light: null, standard: null, heavy: null }
`;
    world = await openWorld(config, { ORCHESTRATE_HOST_RUNTIME: "claude", FAKE_ACP_SERVED: "gemini-2.5-pro" });
    const reply = envOf(await call(world.session, "consult", { prompt: "Is this loop correct?", capability: "coding" }));
    expect(reply).toMatchObject({ ok: true, backend: "gemini", model_verification: "verified" });
    const [rec] = world.box.recordings("acp");
    expect(rec?.argv).toEqual(["--acp", "--allowed-mcp-server-names", "orchestrate-no-mcp", "-e", "none"]);
    expect(received([rec as Recording]).find((m) => m.method === "session/set_mode")?.params).toMatchObject({ modeId: "default" });
  });

  // gemini 0.61, found by the real-CLI smoke: its session file is named by the minute it was
  // opened, and session/load opens that name afresh before it looks, so a follow-up within the
  // same minute erased the session ("No previous sessions found for this project."). The file is
  // gemini's: orchestrate only lists it, and waits for the minute to turn before the load. Up to
  // two of the test's minutes and two consults: its own timeout, above a bare `bun test`'s 5 s.
  test("gemini over ACP: a follow-up in the session's own minute waits for it to turn, then resumes the session from its untouched file", async () => {
    const config = `agents:
  g: { backend: gemini, transport: acp, command: acp, model: gemini-2.5-pro, scores: { coding: 80 } }
tiers: { light: null, standard: null, heavy: null }
`;
    // The fake's minutes and the runner's, seconds long (src/runner/session-minute.ts).
    const minuteMs = 8000;
    world = await openWorld(config, { ORCHESTRATE_HOST_RUNTIME: "claude", FAKE_ACP_SESSIONS: "gemini", ORCHESTRATE_TEST_MINUTE_MS: String(minuteMs) });
    // Just after a minute turns, so that the follow-up comes within the session's own minute.
    await Bun.sleep(minuteMs - (Date.now() % minuteMs) + 50);
    const first = envOf(await call(world.session, "consult", { prompt: "Is this loop correct?", capability: "coding" }));
    expect(first).toMatchObject({ ok: true, backend: "gemini" });
    const tmp = join(world.box.home, ".gemini", "tmp");
    const files = () =>
      readdirSync(tmp, { recursive: true })
        .map(String)
        .filter((f) => f.endsWith(".jsonl"));
    const [name] = files();
    const before = readFileSync(join(tmp, name ?? ""), "utf8");
    const progress: string[] = [];
    const reply = (await world.session.client.callTool(
      { name: "consult", arguments: { prompt: "And the edge case?", capability: "coding", consultation_id: first.consultation_id } },
      undefined,
      { timeout: 120_000, onprogress: (p) => progress.push(String(p.message)) },
    )) as ToolReply;
    const again = envOf(reply);
    expect(again).toMatchObject({ ok: true, consultation_id: first.consultation_id });
    // The first turn's prompt came back from the session's history.
    expect(again.content?.answer).toMatch(/^PONG-FROM-FAKE \(earlier: \[ORCHESTRATE_JSON_ENVELOPE\]/);
    expect(progress.some((m) => /waiting \d+ s for gemini's session minute to turn/.test(m))).toBe(true);
    // The person's session file kept its name; gemini loaded it as the first turn left it, and only
    // gemini wrote to it since (the new turn, after those bytes), beside its new minute's file.
    const load = received(world.box.recordings("acp")).find((m) => m.method === "session-file");
    expect(load?.params).toEqual({ name: basename(name ?? ""), content: before });
    expect(readFileSync(join(tmp, name ?? ""), "utf8").startsWith(before)).toBe(true);
    expect(files()).toContain(name ?? "");
  }, 60_000);

  // claude-agent-acp 0.23.1 started the person's MCP servers from ~/.claude.json whatever ACP's
  // mcpServers said; its one switch is the session's _meta, which it hands to the Claude Agent SDK
  // (src/backends/claude/index.ts, CLAUDE_ACP_SESSION_META).
  test("claude over ACP: a route, a consult and its follow-up never start the person's MCP servers", async () => {
    const config = `agents:
  c: { backend: claude, transport: acp, command: acp, model: sonnet, scores: { coding: 80 } }
tiers: { light: null, standard: null, heavy: [c] }
`;
    // claude-agent-acp's modes as a non-root person sees them.
    const modes = "default,acceptEdits,plan,dontAsk,bypassPermissions";
    world = await openWorld(config, { ORCHESTRATE_HOST_RUNTIME: "codex", FAKE_ACP_USER_MCP: "claude", FAKE_ACP_MODES: modes });
    const marker = join(world.box.root, "MCP_STARTED");
    const server = (scope: string) => ({ type: "stdio", command: "/bin/sh", args: ["-c", `echo ${scope} >> ${marker}`] });
    const claudeJson = { mcpServers: { boom: server("user") }, projects: { [world.box.repo]: { mcpServers: { local: server("local") } } } };
    writeFileSync(join(world.box.home, ".claude.json"), JSON.stringify(claudeJson));
    expect((await route(world)).structuredContent?.servedBy).toMatchObject({ agent: "c", backend: "claude" });
    const first = envOf(await call(world.session, "consult", { prompt: "Is this loop correct?", capability: "coding", agent: "c" }));
    expect(first).toMatchObject({ ok: true, backend: "claude" });
    const again = envOf(await call(world.session, "consult", { prompt: "And the edge case?", capability: "coding", consultation_id: first.consultation_id }));
    expect(again).toMatchObject({ ok: true, consultation_id: first.consultation_id });
    const got = received(world.box.recordings("acp"));
    const sessions = got.filter((m) => m.method === "session/new" || m.method === "session/load");
    expect(sessions.map((m) => m.method)).toEqual(["session/new", "session/new", "session/load"]);
    for (const opened of sessions) expect(opened.params._meta).toEqual({ claudeCode: { options: { strictMcpConfig: true, settingSources: [] } } });
    expect(got.filter((m) => m.method === "user-mcp")).toEqual([]);
    expect(existsSync(marker)).toBe(false);
  });

  // opencode 1.18.33, found by the real-CLI smoke: answer mode isolates the config home, so a
  // provider declared only in the person's opencode.json was not loaded — `opencode acp` refused
  // its model -32602 and listed only its free hosted one; headless it was "model not found".
  test.each([
    ["over ACP", "transport: acp, command: acp", "acp"],
    ["headless", "", "opencode"],
  ])("opencode %s: consult reaches a provider the person declared only in their own opencode.json", async (_name, how, cli) => {
    const config = `agents:
  o: { backend: opencode, model: fake/fake-model${how ? `, ${how}` : ""}, scores: { coding: 80 } }
tiers: { light: null, standard: null, heavy: null }
`;
    world = await openWorld(config, { ORCHESTRATE_HOST_RUNTIME: "claude", FAKE_ACP_MODELS: "opencode-config" });
    const dir = join(world.box.home, ".config", "opencode");
    mkdirSync(dir, { recursive: true });
    const provider = {
      fake: { npm: "@ai-sdk/openai-compatible", options: { baseURL: "http://127.0.0.1:9/v1", apiKey: "dummy" }, models: { "fake-model": {} } },
    };
    writeFileSync(join(dir, "opencode.json"), JSON.stringify({ provider, mcp: { boom: { type: "local", command: ["boom"] } } }));
    const reply = envOf(await call(world.session, "consult", { prompt: "Is this loop correct?", capability: "coding" }));
    expect(reply).toMatchObject({ ok: true, backend: "opencode" });
    const [rec] = world.box.recordings(cli);
    const inline = JSON.parse(rec?.env.OPENCODE_CONFIG_CONTENT ?? "{}") as { provider?: unknown; mcp?: unknown };
    expect(inline.provider).toEqual(provider);
    // Only the providers come along: the person's MCP servers stay out of the answer run.
    expect(inline.mcp).toEqual({});
    expect(rec?.env.XDG_CONFIG_HOME).toContain("orchestrate-home-");
    if (cli === "acp")
      expect(received([rec as Recording]).find((m) => m.method === "session/set_config_option")?.params).toMatchObject({
        configId: "model",
        value: "fake/fake-model",
      });
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return !stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return false;
  }
}

async function waitFor<T>(probe: () => T | undefined, ms = 15_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error("timed out waiting");
    await Bun.sleep(25);
  }
}

describe("an ACP agent behaves as the headless drivers do", () => {
  test("cancel: notifications/cancelled sends session/cancel, ends an agent that never exits, and records the run cancelled", async () => {
    // claude-agent-acp and codex-acp never exit on their own: only the group kill ends them.
    world = await openWorld(NINTH(), { FAKE_ACP_SCENARIO: "hang", FAKE_ACP_EXIT: "never" });
    const abort = new AbortController();
    const pending = world.session.client.callTool({ name: "route", arguments: { prompt: "x", cwd: world.box.repo, tier: "heavy" } }, undefined, {
      signal: abort.signal,
      timeout: 120_000,
    }) as Promise<ToolReply>;
    pending.catch(() => undefined);
    const box = world.box;
    const rec = await waitFor(() => box.recordings("acp").find((r) => received([r]).some((m) => m.method === "session/prompt")));
    expect(alive(rec.pid)).toBe(true);
    abort.abort("changed my mind");
    await expect(pending).rejects.toThrow();
    await waitFor(() => (alive(rec.pid) ? undefined : true));
    const [after] = box.recordings("acp");
    expect(received([after as Recording]).some((m) => m.method === "session/cancel")).toBe(true);
    const store = openStore(box.dbPath, { readonly: true });
    if (!store.ok) throw new Error(store.error.message);
    const status = await waitFor(() => {
      const run = store.value.runs.listRuns({ limit: 1 })[0];
      return run && run.status !== "running" ? run.status : undefined;
    });
    store.value.close();
    expect(status).toBe("cancelled");
    // No fallback after a cancel: the second agent never ran.
    expect(box.recordings("gemini")).toHaveLength(0);
  });

  test("progress: the agent's tool call rides on the progress notifications", async () => {
    world = await openWorld(NINTH(), { FAKE_ACP_SCENARIO: "act-unasked", FAKE_ACT_DELAY_MS: "3000" });
    const progress: string[] = [];
    const reply = (await world.session.client.callTool(
      { name: "route", arguments: { prompt: "do the thing", cwd: world.box.repo, tier: "heavy" } },
      undefined,
      {
        timeout: 120_000,
        onprogress: (p) => progress.push(String(p.message)),
      },
    )) as ToolReply;
    expect(reply.isError).toBeFalsy();
    expect(reply.structuredContent?.servedBy).toMatchObject({ agent: "q" });
    expect(progress.some((m) => m.includes("running echo edited-by-delegate >> README.md"))).toBe(true);
  });
});

describe("answer-only consult fails closed on an acting tool call, on every ACP profile", () => {
  // The unasked act lands this long after its announcement, unless the turn is ended first.
  const FAKE_ACT_DELAY_MS = 300;
  const PROFILES: [string, string][] = [
    ["gemini", "gemini-2.5-pro"],
    ["opencode", "fake/fake-model"],
    ["copilot", "gpt-5"],
    ["claude", "opus"],
    ["codex", "gpt-5.5"],
    ["acp", ""],
  ];
  const cases = PROFILES.flatMap(([backend, model]) => ["act-unasked", "permission"].map((scenario) => [backend, model, scenario] as const));
  test.each(cases)("%s over ACP (model %s), scenario %s: action_attempted, the answer discarded, nothing landed", async (backend, model, scenario) => {
    const entry =
      backend === "acp" ? "backend: acp, provider: qwen, command: [acp, --acp]" : `backend: ${backend}, transport: acp, command: acp, model: ${model}`;
    const config = `agents:\n  a: { ${entry}, scores: { coding: 80 } }\ntiers: { light: null, standard: null, heavy: null }\n`;
    world = await openWorld(config, {
      ORCHESTRATE_HOST_RUNTIME: backend === "claude" ? "codex" : "claude",
      FAKE_ACP_SCENARIO: scenario,
      FAKE_ACT_DELAY_MS: String(FAKE_ACT_DELAY_MS),
      // Each profile's answer mode and model must be offered, as the real agents offer theirs.
      FAKE_ACP_MODES: "default,read-only,auto,autoEdit,acceptEdits",
      FAKE_ACP_MODELS: "fake/fake-model,gpt-5.5,gpt-5,opus,gemini-2.5-pro",
    });
    const reply = envOf(await call(world.session, "consult", { prompt: "Is this loop correct?", capability: "coding" }));
    expect(reply).toMatchObject({ ok: false, error: { code: "action_attempted" } });
    expect(reply.content ?? null).toBeNull();
    // One conversation (opencode's readiness probe is a process of its own), never a second attempt.
    const recs = world.box.recordings("acp").filter((r) => received([r]).some((m) => m.method === "session/prompt"));
    expect(recs).toHaveLength(1);
    const got = received(recs);
    // The call's announcement ends the turn, before the agent could ask or write; an answer that
    // did reach it was never an allow.
    const answer = got.find((m) => m.method === "permission-answer")?.params as { outcome?: { outcome: string; optionId?: string } } | undefined;
    if (answer) expect(answer.outcome?.optionId ?? answer.outcome?.outcome).toMatch(/^(reject|cancelled)$/);
    // The fake notes every act that lands (the scratch cwd is removed after the turn); its group
    // was ended before the reply, so nothing can land later.
    expect(existsSync(join(world.box.records, "acted"))).toBe(false);
  });
});
