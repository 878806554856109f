import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { copilotAdapter, copilotUsageFromUsageFile } from "../../src/backends/copilot/index.ts";
import type { ExitOutcome, FailureClass, RunRequest } from "../../src/backends/contract.ts";
import { foldEvents } from "../../src/backends/fold.ts";
import { eventKinds, isJson, transcriptKinds } from "../helpers/fake-harness.ts";

const FAKE = join(import.meta.dir, "..", "..", "fakes", "copilot");
const FIX = join(import.meta.dir, "..", "fixtures", "copilot");
/** The fakes start with `#!/usr/bin/env bun`; bun comes from the npm devDependency. */
const BIN = join(import.meta.dir, "..", "..", "node_modules", ".bin");
const ROOT = mkdtempSync(join(tmpdir(), "fake-copilot-"));
afterAll(() => rmSync(ROOT, { recursive: true, force: true }));

interface FakeRun { outcome: ExitOutcome; stdout: string; stderr: string; records: string; home: string; cwd: string }

function fresh(): { home: string; cwd: string; records: string } {
  const dir = mkdtempSync(join(ROOT, "run-"));
  return { home: join(dir, "home"), cwd: dir, records: join(dir, "rec") };
}

function childEnv(where: { home: string; records: string }, scenario: string, extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: `${BIN}:${dirname(process.execPath)}:${process.env.PATH ?? ""}`, HOME: where.home, FAKE_RECORD_DIR: where.records, FAKE_COPILOT_SCENARIO: scenario, ...extra };
}

async function runFake(req: RunRequest, scenario: string, extra: Record<string, string> = {}, where = fresh()): Promise<FakeRun> {
  const inv = copilotAdapter.invocation({ ...req, cwd: where.cwd });
  const env: Record<string, string> = childEnv(where, scenario, extra);
  for (const [k, v] of Object.entries(inv.env ?? {})) if (v === undefined) delete env[k]; else env[k] = v;
  const child = Bun.spawn([FAKE, ...inv.args], { cwd: where.cwd, env, stdin: inv.stdin === undefined ? "ignore" : Buffer.from(inv.stdin), stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text()]);
  await child.exited;
  const lines = stdout.split("\n").filter(Boolean);
  const events = lines.flatMap((l) => copilotAdapter.parse(l));
  const raw = lines.filter((l) => copilotAdapter.parse(l).length === 0 && !isJson(l)).join("\n");
  const outcome: ExitOutcome = { exitCode: child.exitCode, signal: child.signalCode === null ? null : String(child.signalCode), events, stderrTail: stderr, rawStdoutTail: raw };
  return { outcome, stdout, stderr, records: where.records, home: where.home, cwd: where.cwd };
}

function recorded(dir: string): { argv: string[]; stdinIsTTY: boolean; cwd: string; env: Record<string, string> } {
  const file = readdirSync(dir).find((f) => f.startsWith("copilot-")) as string;
  return JSON.parse(readFileSync(join(dir, file), "utf8"));
}

const answer: RunRequest = { mode: "answer", prompt: "say pong", cwd: "", model: "gpt-4o" };
const route: RunRequest = { mode: "route", prompt: "say pong", cwd: "", model: "gpt-4o" };

describe("fake copilot, driven by the adapter's own invocation", () => {
  const table: [string, FailureClass | undefined][] = [
    ["ok", undefined], ["auth-fail", "auth"], ["rate-limit", "capacity"], ["overload", "capacity"], ["transport", "transport"],
    ["bad-model", "task_failed"], ["edits-then-fails", "capacity"], ["edits-then-ok", undefined], ["crash", "task_failed"],
    ["bad-json", "bad_output"], ["empty", "empty_answer"], ["slow", undefined], ["wrong-model", undefined], ["action", undefined],
    ["budget", undefined], ["json-answer", undefined], ["prose-answer", undefined],
  ];
  for (const [scenario, expected] of table) {
    test(`${scenario} → ${expected ?? "success"}`, async () => {
      const run = await runFake(route, scenario, { FAKE_DELAY_MS: "20" });
      expect(copilotAdapter.classify(run.outcome)).toBe(expected as never);
      expect(recorded(run.records).argv).toEqual(copilotAdapter.invocation({ ...route, cwd: run.cwd }).args);
    });
  }

  test("ok has the real transcript's event sequence; prompt on argv, stdin not a pipe", async () => {
    const run = await runFake(route, "ok");
    expect(kinds(run.outcome.events)).toEqual(transcriptKindsOf("copilot-fake-p-json"));
    expect(foldEvents(run.outcome.events)).toMatchObject({ text: "PONG-FROM-FAKE", models: ["gpt-4o"] });
    expect(recorded(run.records).argv.slice(0, 2)).toEqual(["-p", "say pong"]);
  });

  test("rate-limit and overload match the real 429 / 503 streams", async () => {
    expect(kinds((await runFake(route, "rate-limit")).outcome.events)).toEqual(transcriptKindsOf("copilot-fake-error429-json"));
    expect(kinds((await runFake(route, "overload")).outcome.events)).toEqual(transcriptKindsOf("copilot-fake-error529-json"));
  });

  test("edits leave a file and report it; action reports an acting shell tool", async () => {
    const edited = await runFake(route, "edits-then-fails");
    expect(existsSync(join(edited.cwd, "FAKE_EDIT.txt"))).toBe(true);
    expect(foldEvents(edited.outcome.events).acted).toBe(true);
    const acted = await runFake(answer, "action");
    expect(acted.outcome.events).toContainEqual({ kind: "tool", name: "bash", phase: "start", acts: true, detail: "touch created-by-tool.txt" });
  });

  test("wrong-model reveals a model other than the requested one", async () => {
    expect(foldEvents((await runFake(route, "wrong-model")).outcome.events).models).not.toContain("gpt-4o");
  });

  test("answer mode: the deny rules reach the CLI and COPILOT_ALLOW_ALL is dropped", async () => {
    const run = await runFake(answer, "ok", { COPILOT_ALLOW_ALL: "true" });
    const rec = recorded(run.records);
    expect(rec.argv).toContain("--deny-tool=shell");
    expect(rec.env.COPILOT_ALLOW_ALL).toBeUndefined();
    expect(rec.stdinIsTTY).toBe(false);
  });

  test("envelope marker gets JSON; json-answer is JSON; prose-answer stays prose", async () => {
    const marked = { ...answer, prompt: "q ORCHESTRATE_JSON_ENVELOPE" };
    expect(JSON.parse(foldEvents((await runFake(marked, "ok")).outcome.events).text)).toMatchObject({ answer: "PONG-FROM-FAKE", sources: [] });
    expect(JSON.parse(foldEvents((await runFake(answer, "json-answer")).outcome.events).text).assumptions).toEqual([]);
    expect(foldEvents((await runFake(marked, "prose-answer")).outcome.events).text).toBe("PONG-FROM-FAKE");
  });

  test("budget: the usage file the adapter asks for reports the huge figures", async () => {
    const where = fresh();
    const iso = join(where.cwd, "iso");
    mkdirSync(iso);
    await runFake({ ...answer, isolatedHome: iso }, "budget", {}, where);
    const usage = copilotUsageFromUsageFile(readFileSync(join(iso, "copilot-usage.json"), "utf8"));
    expect(usage?.usage.inputTokens).toBeGreaterThan(1_000_000);
  });

  test("long: shell and edit tools, then the answer", async () => {
    const run = await runFake(route, "long", { FAKE_EVENTS: "25", FAKE_EVENT_GAP_MS: "5" });
    const tools = run.outcome.events.filter((e) => e.kind === "tool" && e.phase === "start");
    expect(tools.map((t) => (t.kind === "tool" ? t.detail : ""))).toEqual(["npm test", "FAKE_EDIT.txt"]);
    expect(copilotAdapter.classify(run.outcome)).toBeUndefined();
    expect(existsSync(join(run.cwd, "FAKE_EDIT.txt"))).toBe(false);
  });
});

describe("fake copilot sessions, help, version", () => {
  test("resume continues the same session; an unknown id fails like the real CLI", async () => {
    const where = fresh();
    const first = await runFake(answer, "ok", {}, where);
    const id = foldEvents(first.outcome.events).sessionId as string;
    expect(existsSync(join(where.home, ".copilot", "session-state", id, "events.jsonl"))).toBe(true);
    const again = await runFake({ ...answer, resumeSessionId: id }, "ok", {}, where);
    expect(foldEvents(again.outcome.events).sessionId).toBe(id);
    const missing = await runFake({ ...answer, resumeSessionId: "99999999-2222-4333-8444-555555555555" }, "ok", {}, where);
    expect(missing.outcome.exitCode).toBe(1);
    expect(missing.stderr).toBe(readFileSync(join(FIX, "copilot-fake-resume-missing-json.stderr"), "utf8"));
    expect(copilotAdapter.classify(missing.outcome)).toBe("task_failed");
  });

  test("auth-fail prints the real unauthenticated text with an empty stdout", async () => {
    const run = await runFake(route, "auth-fail");
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(readFileSync(join(FIX, "copilot-noauth-p-json.stderr"), "utf8"));
  });

  test("--version, --help, and FAKE_HELP_DROP_FLAG removes a flag (and the fake then rejects it)", async () => {
    const where = fresh();
    const sh = (args: string[], extra: Record<string, string> = {}) => Bun.spawnSync([FAKE, ...args], { env: childEnv(where, "ok", extra), cwd: where.cwd });
    expect(sh(copilotAdapter.probes.version).stdout.toString()).toBe("GitHub Copilot CLI 1.0.102.\nRun 'copilot update' to check for updates.\n");
    expect(sh(copilotAdapter.probes.help).stdout.toString()).toContain("--deny-tool [<tools>...]");
    expect(sh(["--help"], { FAKE_HELP_DROP_FLAG: "--deny-tool" }).stdout.toString()).not.toContain("--deny-tool");
    const rejected = sh(["-p", "x", "--deny-tool=shell"], { FAKE_HELP_DROP_FLAG: "--deny-tool" });
    expect(rejected.exitCode).toBe(2);
    expect(rejected.stderr.toString()).toContain("unexpected argument '--deny-tool=shell'");
  });
});

describe("fake copilot kill paths", () => {
  test("hang: a SIGTERM-ignoring grandchild keeps the group alive until the group is killed", async () => {
    const where = fresh();
    const inv = copilotAdapter.invocation({ ...route, cwd: where.cwd });
    const child = Bun.spawn([FAKE, ...inv.args], { cwd: where.cwd, env: childEnv(where, "hang"), stdin: "ignore", stdout: "pipe", stderr: "ignore", detached: true });
    const reader = child.stdout.getReader();
    await reader.read(); // the init lines come before the hang
    while (!existsSync(join(where.records, "hangers"))) {
      if (child.exitCode !== null) throw new Error("fake exited instead of hanging");
      await Bun.sleep(10);
    }
    process.kill(-child.pid, "SIGTERM");
    const stillAlive = await Promise.race([child.exited.then(() => false), Bun.sleep(300).then(() => true)]);
    expect(stillAlive).toBe(true);
    process.kill(-child.pid, "SIGKILL");
    await child.exited;
    expect(child.signalCode).toBe("SIGKILL");
  });

  test("silent: prints the init lines then nothing, and exits on SIGTERM", async () => {
    const where = fresh();
    const inv = copilotAdapter.invocation({ ...route, cwd: where.cwd });
    const child = Bun.spawn([FAKE, ...inv.args], { cwd: where.cwd, env: childEnv(where, "silent"), stdin: "ignore", stdout: "pipe", stderr: "ignore" });
    const reader = child.stdout.getReader();
    let seen = "";
    while (!seen.includes("session.tools_updated")) {
      const chunk = await reader.read();
      if (chunk.done) break;
      seen += new TextDecoder().decode(chunk.value);
    }
    child.kill("SIGTERM");
    await child.exited;
    expect(child.signalCode).toBe("SIGTERM");
    expect(seen).not.toContain("assistant.message");
  });
});

const kinds = eventKinds;
const transcriptKindsOf = (name: string): string[] => transcriptKinds(copilotAdapter, FIX, name);
