import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { foldEvents } from "../../src/backends/fold.ts";
import { opencodeAdapter, opencodeExportArgv, opencodeModelFromExport } from "../../src/backends/opencode/index.ts";
import type { RunRequest } from "../../src/backends/contract.ts";
import { type Ran, alive, eventKinds, runCli, runInvocation, transcriptKinds, waitFor, waitForFile } from "../helpers/fake-harness.ts";

const ROOT = join(import.meta.dir, "..", "..");
const FAKE = join(ROOT, "fakes", "opencode");
const FIX = join(ROOT, "test", "fixtures", "opencode");
let tmp = "";

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), "fake-opencode-"));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function dirs(name: string): { cwd: string; home: string; rec: string } {
  const base = mkdtempSync(join(tmp, `${name}-`));
  for (const d of ["cwd", "home", "rec"]) Bun.spawnSync(["mkdir", "-p", join(base, d)]);
  return { cwd: join(base, "cwd"), home: join(base, "home"), rec: join(base, "rec") };
}

function childEnv(home: string, rec: string, extra: Record<string, string | undefined>): Record<string, string> {
  const env: Record<string, string | undefined> = {
    PATH: `${join(ROOT, "node_modules", ".bin")}:${process.env.PATH}`,
    HOME: home,
    XDG_DATA_HOME: join(home, ".local", "share"),
    FAKE_RECORD_DIR: rec,
    ...extra,
  };
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}

/** Runs the fake exactly as the adapter says (stdin closed after the prompt, or no pipe at all). */
async function run(req: Partial<RunRequest>, extra: Record<string, string | undefined> = {}, home?: string): Promise<Ran> {
  const d = dirs("run");
  const full: RunRequest = { mode: "route", prompt: "say pong", cwd: d.cwd, ...req };
  const inv = opencodeAdapter.invocation(full);
  return runInvocation(FAKE, opencodeAdapter, inv, full.cwd, childEnv(home ?? d.home, d.rec, { ...inv.env, ...extra }), d.rec);
}

describe("fake opencode scenarios, classified by the adapter", () => {
  test.each([
    ["ok", undefined, "fake-run-json"],
    ["auth-fail", "auth", "fake-error401-run-json"],
    ["rate-limit", "capacity", "fake-error429-run-json"],
    ["overload", "capacity", "fake-error529-run-json"],
    ["transport", "transport", "noauth-run-json-300s"],
    ["bad-model", "task_failed", "noauth-run-json-unknown-model-printlogs"],
    ["action", undefined, "fake-toolcall-touch-run-json"],
    ["slow", undefined, "fake-run-json"],
    ["budget", undefined, "fake-run-json"],
    ["wrong-model", undefined, "fake-run-json"],
    ["empty", "empty_answer", undefined],
    ["bad-json", "bad_output", undefined],
    ["edits-then-fails", "capacity", undefined],
    ["edits-then-ok", undefined, undefined],
  ] as const)("%s → %p", async (scenario, expected, real) => {
    const r = await run({ model: "fake/fake-model" }, { FAKE_OPENCODE_SCENARIO: scenario, FAKE_DELAY_MS: "20" });
    expect(opencodeAdapter.classify(r)).toBe(expected);
    expect(r.record.argv).toEqual(opencodeAdapter.invocation({ mode: "route", prompt: "", cwd: r.record.cwd, model: "fake/fake-model" }).args);
    expect(r.record.stdin).toBe("say pong");
    if (real) expect(kinds(r.events)).toEqual(realKinds(real));
  });

  test("edits-then-fails touches the tree and reports the change before failing", async () => {
    const r = await run({}, { FAKE_OPENCODE_SCENARIO: "edits-then-fails" });
    expect(existsSync(join(r.record.cwd, "FAKE_EDIT.txt"))).toBe(true);
    expect(foldEvents(r.events).acted).toBe(true);
    expect(r.exitCode).toBe(1);
  });

  test("budget reports huge usage; action shows an acting bash tool", async () => {
    expect(foldEvents((await run({}, { FAKE_SCENARIO: "budget" })).events).usage).toMatchObject({ inputTokens: 5_000_000, costUsd: 312.5 });
    const acted = await run({ mode: "answer" }, { FAKE_SCENARIO: "action" });
    expect(acted.events).toContainEqual(expect.objectContaining({ kind: "tool", name: "bash", acts: true }));
  });

  test("long emits progress (edits on the page only) then the answer", async () => {
    const r = await run({}, { FAKE_SCENARIO: "long", FAKE_EVENTS: "6", FAKE_EVENT_GAP_MS: "5" });
    expect(opencodeAdapter.classify(r)).toBeUndefined();
    expect(r.events.filter((e) => e.kind === "tool").length).toBe(4);
    expect(r.events.some((e) => e.kind === "file_change")).toBe(true);
    expect(readdirSync(r.record.cwd)).toEqual([]);
  });

  test("crash dies by signal with partial output and no final record", async () => {
    const r = await run({}, { FAKE_SCENARIO: "crash" });
    expect(r.signal).toBe("SIGSEGV");
    expect(r.events.some((e) => e.kind === "final")).toBe(false);
    expect(opencodeAdapter.classify(r)).toBe("task_failed");
  });
});

describe("fake opencode answer mode", () => {
  test("ok answers the JSON envelope when asked; prose-answer does not; json-answer always", async () => {
    const prompt = "question ORCHESTRATE_JSON_ENVELOPE";
    const ok = await run({ mode: "answer", prompt, isolatedHome: tmp }, { FAKE_REPLY: "forty-two" });
    expect(JSON.parse(foldEvents(ok.events).text)).toEqual({ answer: "forty-two", assumptions: [], uncertainties: [], follow_up_questions: [], sources: [] });
    expect(ok.record.env.OPENCODE_CONFIG_CONTENT).toContain('"bash":"deny"');
    expect(ok.record.env.XDG_CONFIG_HOME).toBe(tmp);
    expect(foldEvents((await run({ mode: "answer", prompt }, { FAKE_SCENARIO: "prose-answer" })).events).text).toBe("PONG-FROM-FAKE");
    expect(JSON.parse(foldEvents((await run({ mode: "answer" }, { FAKE_SCENARIO: "json-answer" })).events).text).answer).toBe("PONG-FROM-FAKE");
  });

  test("resume keeps the session; an unknown id fails like the real CLI", async () => {
    const home = dirs("resume").home;
    const first = await run({ mode: "answer", model: "fake/fake-model" }, {}, home);
    const id = foldEvents(first.events).sessionId ?? "";
    expect(id).toMatch(/^ses_/);
    const again = await run({ mode: "answer", resumeSessionId: id }, {}, home);
    expect(foldEvents(again.events).sessionId).toBe(id);
    const missing = await run({ mode: "answer", resumeSessionId: "ses_doesnotexist" }, {}, home);
    expect(missing.exitCode).toBe(1);
    expect(missing.stderrTail).toContain("Session not found");
    expect(opencodeAdapter.classify(missing)).toBe("task_failed");
  });

  test("export reveals the model (and the substitute under wrong-model)", async () => {
    const home = dirs("export").home;
    const right = foldEvents((await run({ model: "anthropic/claude-sonnet-4-5" }, {}, home)).events).sessionId ?? "";
    const wrong = foldEvents((await run({ model: "anthropic/claude-sonnet-4-5" }, { FAKE_SCENARIO: "wrong-model" }, home)).events).sessionId ?? "";
    const exp = await cliRun(opencodeExportArgv(right), home);
    expect(exp.err).toContain(`Exporting session: ${right}`);
    expect(opencodeModelFromExport(exp.out)).toBe("anthropic/claude-sonnet-4-5");
    expect(opencodeModelFromExport((await cliRun(opencodeExportArgv(wrong), home)).out)).toBe("opencode/big-pickle");
  });
});

describe("fake opencode process behaviour", () => {
  test("hang: a SIGTERM-proof child and grandchild die only with the group SIGKILL", async () => {
    const d = dirs("hang");
    const inv = opencodeAdapter.invocation({ mode: "route", prompt: "x", cwd: d.cwd });
    const proc = Bun.spawn([FAKE, ...inv.args], { cwd: d.cwd, env: childEnv(d.home, d.rec, { FAKE_SCENARIO: "hang" }), stdin: new TextEncoder().encode("x"), stdout: "pipe", detached: true });
    const reader = proc.stdout.getReader();
    const first = await reader.read();
    expect(opencodeAdapter.parse(new TextDecoder().decode(first.value))[0]?.kind).toBe("session");
    const grandchild = Number((await waitForFile(join(d.rec, "grandchildren"))).trim());
    await waitForFile(join(d.rec, "hangers"));
    process.kill(-proc.pid, "SIGTERM");
    expect(await Promise.race([proc.exited.then(() => "exited"), Bun.sleep(300).then(() => "alive")])).toBe("alive");
    process.kill(-proc.pid, "SIGKILL");
    const started = Date.now();
    await proc.exited;
    expect(Date.now() - started).toBeLessThan(3000);
    expect(proc.signalCode).toBe("SIGKILL");
    await waitFor(() => !alive(grandchild));
  });

  test("silent: one session line, then nothing until SIGTERM ends it", async () => {
    const d = dirs("silent");
    const proc = Bun.spawn([FAKE, ...opencodeAdapter.invocation({ mode: "route", prompt: "x", cwd: d.cwd }).args], {
      cwd: d.cwd, env: childEnv(d.home, d.rec, { FAKE_SCENARIO: "silent" }), stdin: new TextEncoder().encode("x"), stdout: "pipe",
    });
    const first = await proc.stdout.getReader().read();
    expect(new TextDecoder().decode(first.value).trim().split("\n")).toHaveLength(1);
    proc.kill("SIGTERM");
    await proc.exited;
    expect(proc.signalCode).toBe("SIGTERM");
  });

  test("an open stdin pipe blocks the run until it is closed (as the real opencode does)", async () => {
    const d = dirs("pipe");
    const proc = Bun.spawn([FAKE, ...opencodeAdapter.invocation({ mode: "route", prompt: "x", cwd: d.cwd }).args], { cwd: d.cwd, env: childEnv(d.home, d.rec, {}), stdin: "pipe", stdout: "pipe" });
    proc.stdin.write("late prompt");
    proc.stdin.flush();
    const early = await Promise.race([proc.exited.then(() => "exited"), Bun.sleep(400).then(() => "waiting")]);
    expect(early).toBe("waiting");
    proc.stdin.end();
    expect(await proc.exited).toBe(0);
  });

  test("version, help (with a dropped flag), models, auth list, no message", async () => {
    const home = dirs("cli").home;
    expect((await cliRun(["--version"], home)).out.trim()).toBe("1.18.33");
    expect((await cliRun(opencodeAdapter.probes.help, home)).out).toContain("--pure");
    expect((await cliRun(opencodeAdapter.probes.help, home, { FAKE_HELP_DROP_FLAG: "--pure" })).out).not.toContain("--pure");
    expect((await cliRun(["models"], home, { FAKE_MODELS: "a/x,b/y" })).out).toBe("a/x\nb/y\n");
    expect((await cliRun(["auth", "list"], home)).out).toContain("2 credentials");
    expect((await cliRun(["auth", "list"], home, { FAKE_SCENARIO: "auth-fail" })).out).toContain("0 credentials");
    const none = await cliRun(["run", "--format", "json"], home);
    expect(none.code).toBe(1);
    expect(none.err).toContain("You must provide a message or a command");
    const bad = await cliRun(["run", "--nope", "x"], home);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain("Unknown argument: nope");
  });
});

function cliRun(args: string[], home: string, extra: Record<string, string> = {}): Promise<{ code: number; out: string; err: string }> {
  return runCli(FAKE, args, childEnv(home, join(home, "rec"), extra));
}

const kinds = eventKinds;
const realKinds = (name: string): string[] => transcriptKinds(opencodeAdapter, FIX, name);
