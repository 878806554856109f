/**
 * agy end to end: a real MCP client over stdio, the real server, the fake agy (built from docs,
 * see fakes/agy) on PATH, real git and SQLite. A route edits through agy and falls back only on a
 * clean failure; a consult answers answer-only and resumes its conversation; `orchestrate check`
 * and the wizard's detection find agy where its installer puts it, ~/.local/bin.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { textOf, type ClientSession, type ToolReply } from "../../fakes/lib/mcp-client.ts";
import { connectInProcess } from "../../fakes/lib/in-process.ts";
import { FAKES_DIR, makeSandbox, type Recording, type Sandbox } from "../../fakes/lib/sandbox.ts";
import { detectBackends } from "../../src/doctor/detect.ts";
import { ask, call, envOf, startWorld, type World } from "./consult-helpers.ts";
import { runCliInProcess } from "../../fakes/lib/cli-in-process.ts";
import { usualLocationSandbox } from "../setup/helpers.ts";

const MODEL = "gemini-3.8-flash-high";
const FAST = { FAKE_AGY_TIME_SCALE: "0" };
const after = (argv: string[], flag: string) => argv[argv.indexOf(flag) + 1];
const SCRATCH = /\/orchestrate-consult-[0-9A-Z]{26}$/;

let box: Sandbox | undefined;
let session: ClientSession | undefined;
let world: World | undefined;

afterEach(async () => {
  await session?.close().catch(() => undefined);
  await world?.close();
  box?.cleanup();
  session = undefined;
  world = undefined;
  box = undefined;
});

/** agy keeps its login in this file when there is no D-Bus session (research/cli-agy.md §6). */
function signIn(home: string): void {
  mkdirSync(join(home, ".gemini", "antigravity-cli"), { recursive: true });
  writeFileSync(
    join(home, ".gemini", "antigravity-cli", "antigravity-oauth-token"),
    JSON.stringify({ access_token: "ya29.fake", refresh_token: "1//fake", auth_method: "consumer" }),
  );
}

/** A second agy install whose behaviour differs (variants are probed per binary, not per env). */
function otherAgy(root: string, env: Record<string, string>): string {
  const path = join(root, "other-agy", "agy");
  mkdirSync(join(root, "other-agy"), { recursive: true });
  writeFileSync(
    path,
    `#!/bin/sh\n${Object.entries(env)
      .map(([k, v]) => `${k}=${v} `)
      .join("")}exec ${join(FAKES_DIR, "agy")} "$@"\n`,
  );
  chmodSync(path, 0o755);
  return path;
}

/** Print-mode runs only: not the `--version` variant probe, not the `models` readiness probe. */
const printRuns = (recs: Recording[]) => recs.filter((r) => r.argv.includes("stream-json"));

function twoAgys(first = ""): string {
  return `agents:
  ag:
    backend: agy
    model: ${MODEL}
${first}  ag2:
    backend: agy
    model: gemini-3.1-pro-high
tiers:
  light: null
  standard: null
  heavy: [ag, ag2]
`;
}

async function route(config: string, env: Record<string, string> = {}, args: Record<string, unknown> = {}): Promise<ToolReply> {
  box = makeSandbox({ ...FAST, ...env });
  signIn(box.home);
  box.writeConfig(config);
  session = await connectInProcess(box.env);
  return (await session.client.callTool({
    name: "route",
    arguments: { prompt: "do the thing", cwd: box.repo, tier: "heavy", timeoutSec: 120, ...args },
  })) as ToolReply;
}

type Attempt = { agent: string; outcome: string; reason: string; fellBack: boolean; treeChanged?: boolean | null };
const attemptsOf = (reply: ToolReply) => (reply.structuredContent?.attempts ?? []) as Attempt[];

describe("route through agy", () => {
  test("agy edits in the repo as its workspace, shell stays soft-denied, and its env is cleaned", async () => {
    const reply = await route(twoAgys(), { AGY_GATEWAY_URL: "https://elsewhere.invalid", FAKE_AGY_SCENARIO: "edits-then-ok" });
    expect(reply.isError).toBeFalsy();
    expect(reply.structuredContent?.servedBy).toMatchObject({ agent: "ag", backend: "agy", provider: "google", model: MODEL });
    expect(textOf(reply)).toContain("PONG-FROM-FAKE");
    const [run] = printRuns(box!.recordings("agy"));
    expect(run?.cwd).toBe(box!.repo);
    expect(after(run?.argv ?? [], "--add-dir")).toBe(box!.repo);
    expect(after(run?.argv ?? [], "--model")).toBe(MODEL);
    expect(run?.argv).not.toContain("--dangerously-skip-permissions");
    expect(run?.argv).not.toContain("-p");
    expect(run?.stdin).toContain("do the thing");
    expect(run?.env.AGY_CLI_DISABLE_AUTO_UPDATE).toBe("true");
    expect(run?.env.AGY_GATEWAY_URL).toBeUndefined();
  });

  test("--print-timeout is raised to the attempt's budget, so agy's own 5-minute default never cuts a route short", async () => {
    await route(twoAgys());
    const [run] = printRuns(box!.recordings("agy"));
    const seconds = Number(/^(\d+)s$/.exec(after(run?.argv ?? [], "--print-timeout") ?? "")?.[1]);
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(120);
  });

  test("the individual quota (exit 3, AGY_ERROR) falls back to the next agent with the tree unchanged", async () => {
    const reply = await route(twoAgys("    env: { FAKE_AGY_SCENARIO: rate-limit }\n"));
    expect(attemptsOf(reply).map((a) => [a.agent, a.outcome, a.fellBack])).toEqual([
      ["ag", "unavailable", true],
      ["ag2", "ok", false],
    ]);
    expect(textOf(reply)).toContain("PONG-FROM-FAKE");
  });

  test("a failure after agy edited the tree is terminal", async () => {
    const reply = await route(twoAgys("    env: { FAKE_AGY_SCENARIO: edits-then-fails }\n"));
    expect(reply.isError).toBe(true);
    expect(attemptsOf(reply)).toHaveLength(1);
    expect(attemptsOf(reply)[0]).toMatchObject({ agent: "ag", treeChanged: true, fellBack: false });
  });

  test("signed out: the `agy models` pre-flight makes it a fast clean failure, with no print run", async () => {
    box = makeSandbox(FAST);
    const elsewhere = join(box.root, "signed-out-home");
    mkdirSync(elsewhere, { recursive: true });
    const reply = await routeIn(box, twoAgys(`    env: { HOME: ${JSON.stringify(elsewhere)} }\n`));
    expect(attemptsOf(reply).map((a) => [a.agent, a.outcome])).toEqual([
      ["ag", "unavailable"],
      ["ag2", "ok"],
    ]);
    const signedOut = box.recordings("agy").filter((r) => r.env.HOME === elsewhere);
    expect(signedOut.map((r) => r.argv)).toContainEqual(["models"]);
    expect(printRuns(signedOut)).toEqual([]);
  });

  test("an agy build that prints nothing to a pipe is refused before it runs, never read as an empty answer", async () => {
    box = makeSandbox(FAST);
    const old = otherAgy(box.root, { FAKE_AGY_SCENARIO: "old-build" });
    const reply = await routeIn(box, twoAgys(`    command: ${old}\n`));
    expect(attemptsOf(reply).map((a) => [a.agent, a.outcome, a.fellBack])).toEqual([
      ["ag", "unavailable", true],
      ["ag2", "ok", false],
    ]);
    const oldRuns = box.recordings("agy").filter((r) => r.scenario === "old-build");
    expect(oldRuns.map((r) => r.argv)).toEqual([["--version"]]);
  });
});

async function routeIn(sandbox: Sandbox, config: string): Promise<ToolReply> {
  signIn(sandbox.home);
  sandbox.writeConfig(config);
  session = await connectInProcess(sandbox.env);
  return (await session.client.callTool({ name: "route", arguments: { prompt: "do the thing", cwd: sandbox.repo, tier: "heavy" } })) as ToolReply;
}

describe("consult through agy", () => {
  test("answers answer-only (no workspace, the envelope schema) and a follow-up resumes the same conversation", async () => {
    world = await startWorld({ a: { backend: "agy", model: MODEL } }, { ORCHESTRATE_HOST_RUNTIME: "claude", ...FAST });
    signIn(world.box.home);
    const first = envOf(await ask(world.session));
    // agy's stream only echoes --model (init.model): nothing proves which model served.
    expect(first).toMatchObject({ ok: true, agent: "a", backend: "agy", model_verification: "unverified" });
    expect(first.content).toEqual({ answer: "PONG-FROM-FAKE", assumptions: [], uncertainties: [], follow_up_questions: [], sources: [] });
    const again = envOf(await ask(world.session, { consultation_id: first.consultation_id, prompt: "And the edge case?" }));
    expect(again).toMatchObject({ ok: true, consultation_id: first.consultation_id });
    const stored = (await call(world.session, "get_consultation", { id: first.consultation_id })).structuredContent?.native_session_id;
    const native = typeof stored === "string" ? stored : "";
    expect(native).toMatch(/^[0-9a-f-]{36}$/);
    const runs = printRuns(world.box.recordings("agy"));
    expect(runs).toHaveLength(2);
    for (const rec of runs) {
      expect(rec.cwd).toMatch(SCRATCH);
      expect(rec.argv).not.toContain("--add-dir");
      expect(rec.argv).not.toContain("--dangerously-skip-permissions");
      expect(rec.argv).toContain("--json-schema");
      expect(rec.argv).toContain("--disable-slash-commands");
      // The person's HOME: agy's login and conversations live there (§5.3).
      expect(rec.env.HOME).toBe(world.box.home);
    }
    expect(runs[0]?.argv).not.toContain("--conversation");
    expect(after(runs[1]?.argv ?? [], "--conversation")).toBe(native);
  });

  test("a tool step during an answer-only consult fails it closed, even though agy soft-denied it", async () => {
    world = await startWorld({ a: { backend: "agy", model: MODEL } }, { ORCHESTRATE_HOST_RUNTIME: "claude", FAKE_AGY_SCENARIO: "action", ...FAST });
    signIn(world.box.home);
    const reply = envOf(await ask(world.session));
    expect(reply).toMatchObject({ ok: false, error: { code: "action_attempted" } });
  });

  test("a failed consult carries the backend's explanation", async () => {
    world = await startWorld({ a: { backend: "agy", model: MODEL } }, { ORCHESTRATE_HOST_RUNTIME: "claude", FAKE_AGY_SCENARIO: "wrong-model", ...FAST });
    signIn(world.box.home);
    const reply = envOf(await ask(world.session));
    expect(reply.ok).toBe(false);
    expect(`${reply.error?.message ?? ""} ${reply.error?.hint ?? ""}`).toContain("agy models");
  });

  test("an agy too old to drive: not_installed, and the message names the version needed", async () => {
    world = await startWorld({ a: { backend: "agy", model: MODEL } }, { ORCHESTRATE_HOST_RUNTIME: "claude", FAKE_AGY_SCENARIO: "old-build", ...FAST });
    signIn(world.box.home);
    const reply = envOf(await ask(world.session));
    expect(reply).toMatchObject({ ok: false, error: { code: "not_installed" } });
    expect(reply.error?.message).toContain("agy 1.0.16 is too old to drive headless");
    expect(reply.error?.message).toContain("agy 1.1.10 or newer");
    expect(printRuns(world.box.recordings("agy"))).toEqual([]);
  });

  test("the quota is rate_limited, and consult does not fall back on its own", async () => {
    world = await startWorld({ a: { backend: "agy", model: MODEL } }, { ORCHESTRATE_HOST_RUNTIME: "claude", FAKE_AGY_SCENARIO: "rate-limit", ...FAST });
    signIn(world.box.home);
    expect(envOf(await ask(world.session))).toMatchObject({ ok: false, error: { code: "rate_limited" } });
  });
});

describe("agy is found where its installer puts it (~/.local/bin, not on PATH)", () => {
  test("orchestrate check: path, version, flags and sign-in", async () => {
    box = usualLocationSandbox(["agy"], FAST);
    signIn(box.home);
    box.writeConfig(`agents:\n  ag:\n    backend: agy\n    model: ${MODEL}\ntiers:\n  light: [ag]\n`);
    const out = await runCliInProcess(["check"], box.env);
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(
      new RegExp(`agy\\s+${join(box.home, ".local", "bin", "agy")} \\(usual location, not on PATH\\) · v1\\.2\\.17 · flags ok · signed in`),
    );
  }, 60_000);

  test("orchestrate check names the version needed when the installed agy is too old", async () => {
    box = usualLocationSandbox(["agy"], { ...FAST, FAKE_AGY_SCENARIO: "old-build" });
    signIn(box.home);
    box.writeConfig(`agents:\n  ag:\n    backend: agy\n    model: ${MODEL}\ntiers:\n  light: [ag]\n`);
    const out = await runCliInProcess(["check"], box.env);
    expect(out.stdout).toContain("agy 1.0.16 is too old to drive headless");
    expect(out.stdout).toContain("agy 1.1.10 or newer");
  }, 60_000);

  test("the wizard's detection sees it installed, current and signed in", async () => {
    box = usualLocationSandbox(["agy"], FAST);
    signIn(box.home);
    const [probe] = await detectBackends({ env: box.env, backends: ["agy"] });
    expect(probe).toMatchObject({
      backend: "agy",
      path: join(box.home, ".local", "bin", "agy"),
      via: "usual",
      version: "1.2.17",
      variant: "1.2.17",
      readiness: "ready",
      problems: [],
    });
  }, 60_000);
});
