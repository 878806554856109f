import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { copilotAdapter } from "../../src/backends/copilot/index.ts";
import { copilotUsageFromUsageFile } from "../../src/backends/copilot/machine.ts";
import type { ExitOutcome, FailureClass, RunRequest } from "../../src/backends/contract.ts";
import { foldEvents } from "../../src/backends/fold.ts";
import { eventKinds, isJson, transcriptKinds } from "../helpers/fake-harness.ts";

const FAKE = join(import.meta.dir, "..", "..", "fakes", "copilot");
const FIX = join(import.meta.dir, "..", "fixtures", "copilot");
/** The fakes start with `#!/usr/bin/env bun`; bun comes from the npm devDependency. */
const BIN = join(import.meta.dir, "..", "..", "node_modules", ".bin");
const ROOT = mkdtempSync(join(tmpdir(), "fake-copilot-"));
afterAll(() => rmSync(ROOT, { recursive: true, force: true }));

interface FakeRun {
  outcome: ExitOutcome;
  stdout: string;
  stderr: string;
  records: string;
  home: string;
  cwd: string;
}

function fresh(): { home: string; cwd: string; records: string } {
  const dir = mkdtempSync(join(ROOT, "run-"));
  return { home: join(dir, "home"), cwd: dir, records: join(dir, "rec") };
}

function childEnv(where: { home: string; records: string }, scenario: string, extra: Record<string, string> = {}): Record<string, string> {
  // Signed in the way copilot reads it (a fine-grained token in its first variable); the recorded
  // retry schedule 1000× faster.
  return {
    PATH: `${BIN}:${dirname(process.execPath)}:${process.env.PATH ?? ""}`,
    HOME: where.home,
    FAKE_RECORD_DIR: where.records,
    FAKE_COPILOT_SCENARIO: scenario,
    COPILOT_GITHUB_TOKEN: "github_pat_dummy",
    FAKE_RETRY_SCALE: "0.001",
    ...extra,
  };
}

async function runFake(req: RunRequest, scenario: string, extra: Record<string, string> = {}, where = fresh()): Promise<FakeRun> {
  const inv = copilotAdapter.invocation({ ...req, cwd: where.cwd });
  const env: Record<string, string> = childEnv(where, scenario, extra);
  for (const [k, v] of Object.entries(inv.env ?? {}))
    if (v === undefined) delete env[k];
    else env[k] = v;
  const child = Bun.spawn([FAKE, ...inv.args], {
    cwd: where.cwd,
    env,
    stdin: inv.stdin === undefined ? "ignore" : Buffer.from(inv.stdin),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text()]);
  await child.exited;
  const lines = stdout.split("\n").filter(Boolean);
  const events = lines.flatMap((l) => copilotAdapter.parse(l));
  const raw = lines.filter((l) => copilotAdapter.parse(l).length === 0 && !isJson(l)).join("\n");
  const outcome: ExitOutcome = {
    exitCode: child.exitCode,
    signal: child.signalCode === null ? null : String(child.signalCode),
    events,
    stderrTail: stderr,
    rawStdoutTail: raw,
  };
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
    ["ok", undefined],
    ["auth-fail", "auth"],
    ["rate-limit", "capacity"],
    ["overload", "capacity"],
    ["transport", "transport"],
    ["bad-model", "task_failed"],
    ["edits-then-fails", "capacity"],
    ["edits-then-ok", undefined],
    ["crash", "task_failed"],
    ["bad-json", "bad_output"],
    ["empty", "empty_answer"],
    ["slow", undefined],
    ["wrong-model", undefined],
    ["action", undefined],
    ["budget", undefined],
    ["json-answer", undefined],
    ["prose-answer", undefined],
  ];
  for (const [scenario, expected] of table) {
    test(`${scenario} → ${expected ?? "success"}`, async () => {
      const run = await runFake(route, scenario, { FAKE_DELAY_MS: "20" });
      expect(copilotAdapter.classify(run.outcome)).toBe(expected as never);
      expect(recorded(run.records).argv).toEqual(copilotAdapter.invocation({ ...route, cwd: run.cwd }).args);
    });
  }

  test("ok has the real transcript's event sequence; the prompt on stdin, never in argv", async () => {
    const run = await runFake(route, "ok");
    expect(kinds(run.outcome.events)).toEqual(transcriptKindsOf("copilot-fake-p-json"));
    expect(foldEvents(run.outcome.events)).toMatchObject({ text: "PONG-FROM-FAKE", models: ["gpt-4o"] });
    const rec = recorded(run.records) as ReturnType<typeof recorded> & { stdin: string };
    expect(rec.stdin).toBe("say pong");
    expect(rec.argv).not.toContain("say pong");
    expect(rec.argv).not.toContain("-p");
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
    const child = Bun.spawn([FAKE, ...inv.args], {
      cwd: where.cwd,
      env: childEnv(where, "hang"),
      stdin: Buffer.from(inv.stdin ?? ""),
      stdout: "pipe",
      stderr: "ignore",
      detached: true,
    });
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
    const child = Bun.spawn([FAKE, ...inv.args], {
      cwd: where.cwd,
      env: childEnv(where, "silent"),
      stdin: Buffer.from(inv.stdin ?? ""),
      stdout: "pipe",
      stderr: "ignore",
    });
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

/** The fake with any argv, the prompt piped as the adapter pipes it. */
async function runArgs(args: string[], scenario: string, extra: Record<string, string> = {}, where = fresh()): Promise<FakeRun> {
  mkdirSync(where.cwd, { recursive: true });
  const child = Bun.spawn([FAKE, "--output-format", "json", ...args], {
    cwd: where.cwd,
    env: childEnv(where, scenario, extra),
    stdin: Buffer.from("say pong"),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text()]);
  await child.exited;
  const events = stdout
    .split("\n")
    .filter(Boolean)
    .flatMap((l) => copilotAdapter.parse(l));
  return {
    outcome: { exitCode: child.exitCode, signal: null, events, stderrTail: stderr, rawStdoutTail: "" },
    stdout,
    stderr,
    records: where.records,
    home: where.home,
    cwd: where.cwd,
  };
}

const denials = (run: FakeRun) =>
  run.stdout
    .split("\n")
    .filter((l) => l.includes('"code":"denied"'))
    .map((l) => (JSON.parse(l) as { data: { error: { message: string } } }).data.error.message);

describe("fake copilot is as strict as copilot 1.0.102 (retries-and-trust §3, §1.5; research §C.1, §C.3)", () => {
  test("a write runs only with --allow-all-tools; without it it is denied the recorded way and the run goes on to exit 0", async () => {
    const denied = await runArgs([], "action");
    expect(denials(denied)).toEqual([
      "Permission denied because no interactive user response was available. Retry in an interactive session so the user can approve it, or try an alternative that does not require this permission.",
    ]);
    expect(existsSync(join(denied.cwd, "created-by-tool.txt"))).toBe(false);
    expect(denied.outcome.exitCode).toBe(0);
    // What the adapter makes of it: a refusal, surfaced, while the run itself ended fine.
    expect(foldEvents(denied.outcome.events).refusals).toEqual([
      expect.objectContaining({ tool: "bash", message: expect.stringContaining("Permission denied") }),
    ]);
    const allowed = await runArgs(["--allow-all-tools"], "action");
    expect(denials(allowed)).toEqual([]);
    expect(existsSync(join(allowed.cwd, "created-by-tool.txt"))).toBe(true);
    // A read-only command needs no approval (the captured `ls`).
    expect(denials(await runArgs([], "read"))).toEqual([]);
    // File tools too: `create` is refused without the flag, and reports no file.
    const create = await runArgs([], "edits-then-ok");
    expect(existsSync(join(create.cwd, "FAKE_EDIT.txt"))).toBe(false);
    expect(foldEvents(create.outcome.events).refusals.map((r) => r.tool)).toEqual(["create"]);
  });

  test("--deny-tool beats every allow, --allow-all-tools included, with the rule quoted", async () => {
    const shell = await runArgs(["--allow-all-tools", "--deny-tool=shell(touch)"], "action");
    expect(denials(shell)).toEqual(["Permission to run this tool was denied due to the following rules: `shell(touch)`"]);
    expect(existsSync(join(shell.cwd, "created-by-tool.txt"))).toBe(false);
    const write = await runArgs(["--allow-all-tools", "--deny-tool=write"], "edits-then-ok");
    expect(existsSync(join(write.cwd, "FAKE_EDIT.txt"))).toBe(false);
    expect(denials(write)).toEqual(["Permission to run this tool was denied due to the following rules: `write`"]);
    // The adapter's answer-mode rules, as it passes them.
    const answerArgs = copilotAdapter.invocation({ ...answer, cwd: "/x" }).args.filter((a) => a.startsWith("--deny-tool"));
    expect(denials(await runArgs(["--allow-all-tools", ...answerArgs], "action"))).toHaveLength(1);
  });

  test("signed in only where copilot looks: the token variables, gh's stored login, or a BYOK provider", async () => {
    const none = await runArgs([], "ok", { COPILOT_GITHUB_TOKEN: "" });
    expect(none.outcome.exitCode).toBe(1);
    expect(none.stderr).toContain("Error: No authentication information found.");
    expect(copilotAdapter.classify(none.outcome)).toBe("auth");
    expect((await runArgs([], "ok", { COPILOT_GITHUB_TOKEN: "", GH_TOKEN: "gho_x" })).outcome.exitCode).toBe(0);
    expect((await runArgs([], "ok", { COPILOT_GITHUB_TOKEN: "", COPILOT_PROVIDER_BASE_URL: "http://127.0.0.1:9/v1" })).outcome.exitCode).toBe(0);
    const gh = fresh();
    mkdirSync(join(gh.home, ".config", "gh"), { recursive: true });
    Bun.write(join(gh.home, ".config", "gh", "hosts.yml"), "github.com:\n    oauth_token: gho_stored\n");
    expect((await runArgs([], "ok", { COPILOT_GITHUB_TOKEN: "" }, gh)).outcome.exitCode).toBe(0);
    const classic = await runArgs([], "ok", { COPILOT_GITHUB_TOKEN: "ghp_classic" });
    expect(classic.outcome.exitCode).toBe(1);
    expect(classic.stderr).toContain("Classic personal access tokens (ghp_) are not supported.");
  });

  test("a 429 replays the recorded sequence at its recorded pace; transient prints the same first failure, then answers", async () => {
    const where = fresh();
    mkdirSync(where.cwd, { recursive: true });
    const child = Bun.spawn([FAKE, "--output-format", "json", "--allow-all-tools"], {
      cwd: where.cwd,
      env: childEnv(where, "rate-limit", { FAKE_RETRY_SCALE: "0.02" }),
      stdin: Buffer.from("x"),
      stdout: "pipe",
    });
    const failures: number[] = [];
    let buffered = "";
    for await (const chunk of child.stdout) {
      buffered += new TextDecoder().decode(chunk);
      while ((buffered.match(/"type":"model\.call_failure"/g)?.length ?? 0) > failures.length) failures.push(performance.now());
    }
    await child.exited;
    expect(failures).toHaveLength(6);
    // The first recorded gap between two failed requests is 1.12 s (transcripts/copilot-fake-error429-json).
    expect((failures[1] ?? 0) - (failures[0] ?? 0)).toBeGreaterThanOrEqual(1000 * 0.02);
    const transient = await runFake(route, "transient");
    expect(transient.outcome.events.filter((e) => e.kind === "retry" && e.failure === "capacity")).toHaveLength(1);
    expect(copilotAdapter.classify(transient.outcome)).toBeUndefined();
    expect(foldEvents(transient.outcome.events).text).toBe("PONG-FROM-FAKE");
  });
});
