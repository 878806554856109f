/**
 * The fake agy is as strict as research/cli-agy.md says the real one is: Go flag parsing, stdin
 * rules, sign-in from where agy keeps it, headless permissions, per-version exit codes, the
 * old-build silence — each run driven exactly as the adapter says and classified by it.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { agyAdapter } from "../../src/backends/agy/index.ts";
import type { Invocation, RunRequest } from "../../src/backends/contract.ts";
import { foldEvents } from "../../src/backends/fold.ts";
import { type Ran, alive, outcomeOf, runCli, runInvocation, waitFor, waitForFile } from "../helpers/fake-harness.ts";

const ROOT = join(import.meta.dir, "..", "..");
const FAKE = join(ROOT, "fakes", "agy");
const MODEL = "gemini-3.8-flash-high";
let tmp = "";

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), "fake-agy-"));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

interface Dirs {
  cwd: string;
  home: string;
  rec: string;
}

function dirs(name: string, signedIn = true): Dirs {
  const base = mkdtempSync(join(tmp, `${name}-`));
  const d = { cwd: join(base, "cwd"), home: join(base, "home"), rec: join(base, "rec") };
  for (const dir of Object.values(d)) mkdirSync(dir, { recursive: true });
  if (signedIn) signIn(d.home);
  return d;
}

/** Without a D-Bus session agy keeps its login in this file under HOME (§6). */
function signIn(home: string): void {
  mkdirSync(join(home, ".gemini", "antigravity-cli"), { recursive: true });
  writeFileSync(
    join(home, ".gemini", "antigravity-cli", "antigravity-oauth-token"),
    JSON.stringify({ access_token: "ya29.fake", refresh_token: "1//fake", auth_method: "consumer" }),
  );
}

function childEnv(home: string, rec: string, extra: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string | undefined> = {
    PATH: `${join(ROOT, "node_modules", ".bin")}:${process.env.PATH}`,
    HOME: home,
    FAKE_RECORD_DIR: rec,
    FAKE_AGY_TIME_SCALE: "0",
    ...extra,
  };
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}

function request(d: Dirs, req: Partial<RunRequest>): RunRequest {
  return { mode: "route", prompt: "say pong", cwd: d.cwd, model: MODEL, timeoutSec: 600, ...req };
}

/** Runs the fake exactly as the adapter says. */
async function run(req: Partial<RunRequest> = {}, extra: Record<string, string | undefined> = {}, d = dirs("run")): Promise<Ran> {
  const full = request(d, req);
  const inv = agyAdapter.invocation(full);
  return runInvocation(FAKE, agyAdapter, inv, full.cwd, childEnv(d.home, d.rec, { ...inv.env, ...extra }), d.rec);
}

interface Extras {
  version: string;
  signedIn: boolean;
  mcpServers: string[];
  workspaceRoots: string[];
}

function extras(d: Dirs): Extras {
  const file = readdirSync(d.rec).find((f) => f.startsWith("agy-")) ?? "missing";
  const parsed: Extras = JSON.parse(readFileSync(join(d.rec, file), "utf8"));
  return parsed;
}

const cli = (args: string[], d: Dirs, extra: Record<string, string> = {}) => runCli(FAKE, args, childEnv(d.home, d.rec, extra));
const lastResult = (r: Ran) => JSON.parse(r.stdout.trim().split("\n").at(-1) ?? "{}").result as Record<string, unknown>;

describe("fake agy scenarios, classified by the adapter", () => {
  test.each([
    ["ok", undefined, 0],
    ["slow", undefined, 0],
    ["budget", undefined, 0],
    ["json-answer", undefined, 0],
    ["long", undefined, 0],
    ["edits-then-ok", undefined, 0],
    ["empty", "empty_answer", 0],
    ["bad-json", "bad_output", 0],
    ["crash", "task_failed", 2],
    ["rate-limit", "capacity", 3],
    ["overload", "capacity", 3],
    ["transient", undefined, 0],
    ["transport", "transport", 3],
    ["edits-then-fails", "capacity", 3],
    ["action", "task_failed", 0],
    ["wrong-model", "task_failed", 1],
    ["bad-model", "task_failed", 1],
    ["auth-fail", "auth", 1],
    ["print-timeout", "timeout", 0],
  ] as const)("%s → %p (exit %p)", async (scenario, expected, code) => {
    const r = await run(
      { timeoutSec: scenario === "print-timeout" ? 1 : 600 },
      { FAKE_AGY_SCENARIO: scenario, FAKE_DELAY_MS: "20", FAKE_EVENTS: "3", FAKE_EVENT_GAP_MS: "5" },
    );
    expect(agyAdapter.classify(r)).toBe(expected);
    expect(r.exitCode).toBe(code);
    expect(r.record.argv).toEqual(
      agyAdapter.invocation(request({ cwd: r.record.cwd, home: "", rec: "" }, { timeoutSec: scenario === "print-timeout" ? 1 : 600 })).args,
    );
    expect(r.record.stdin).toBe("say pong");
  });

  test("ok: the documented stream, timed like agy's (init first), answer from result.response", async () => {
    const r = await run();
    const kinds = r.stdout
      .trim()
      .split("\n")
      .map((l) => {
        const line = JSON.parse(l);
        return line.event === "step_update" ? `${line.step_update.step_type}:${line.step_update.state}` : line.event;
      });
    expect(kinds).toEqual(["init", "user_input:DONE", "agent_response:DONE", "checkpoint:DONE", "result"]);
    const run0 = foldEvents(r.events);
    expect(run0.text).toBe("PONG-FROM-FAKE");
    expect(run0.usage).toEqual({ inputTokens: 10418, outputTokens: 589, cachedInputTokens: 8113 });
    expect(r.events).toContainEqual({ kind: "model", model: MODEL, requested: true });
    expect(run0.models).toEqual([]);
  });

  test("a long reply streams ACTIVE fragments that add up to result.response", async () => {
    const reply = "This reply is long enough to arrive in several fragments, as agy streams them.";
    const r = await run({}, { FAKE_REPLY: reply });
    expect(r.stdout).toContain('"state":"ACTIVE","step_type":"agent_response"');
    const deltas = r.events.flatMap((e) => (e.kind === "text" ? [e.text] : [])).join("");
    expect(deltas).toBe(reply);
    expect(foldEvents(r.events).text).toBe(reply);
  });

  test("rate-limit: the individual-quota text and the ≥1.2.6 AGY_ERROR line, exit 3", async () => {
    const r = await run({}, { FAKE_AGY_SCENARIO: "rate-limit" });
    expect(r.stderrTail).toContain("error: Individual quota reached. Please upgrade your subscription to increase your limits. Resets in 1h28m45s.");
    expect(r.stderrTail).toContain('AGY_ERROR: {"status":"RESOURCE_EXHAUSTED","error_code":429}');
    expect(lastResult(r)).toMatchObject({ status: "ERROR", error: expect.stringContaining("Individual quota reached") });
  });

  test("overload retries in-process before failing: the wait scales with FAKE_AGY_TIME_SCALE", async () => {
    const started = Date.now();
    const r = await run({}, { FAKE_AGY_SCENARIO: "overload", FAKE_AGY_TIME_SCALE: "0.02" });
    // 1 s + 2 s + 4 s of backoff at 1/50, plus init's 2.4 s.
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(agyAdapter.classify(r)).toBe("capacity");
  });

  test("persona 1.1.18: failures exit 1 with an ERROR result and no AGY_ERROR; the print timeout is an ERROR", async () => {
    const quota = await run({}, { FAKE_AGY_SCENARIO: "rate-limit", FAKE_AGY_VERSION: "1.1.18" });
    expect(quota.exitCode).toBe(1);
    expect(quota.stderrTail).not.toContain("AGY_ERROR");
    expect(agyAdapter.classify(quota)).toBe("capacity");
    const late = await run({ timeoutSec: 1 }, { FAKE_AGY_SCENARIO: "print-timeout", FAKE_AGY_VERSION: "1.1.18" });
    expect(late.exitCode).toBe(1);
    expect(lastResult(late)).toMatchObject({ status: "ERROR", error: "timeout waiting for response" });
    expect(agyAdapter.classify(late)).toBe("timeout");
  });

  test("≥1.2.11 print timeout: exit 0, SUCCESS with the partial text, and the notice — classified timeout", async () => {
    const r = await run({ timeoutSec: 1 }, { FAKE_AGY_SCENARIO: "print-timeout" });
    expect(lastResult(r).status).toBe("SUCCESS");
    expect(r.stderrTail).toContain("[agy] print timeout after 1s with turn in progress; returning partial output");
    expect(agyAdapter.explain?.(r)).toContain("--print-timeout (1s)");
  });

  test("crash is a Go panic (exit 2) mid-line; bad-json leaves a broken result line", async () => {
    const crash = await run({}, { FAKE_AGY_SCENARIO: "crash" });
    expect(crash.stderrTail).toContain("panic: runtime error: invalid memory address or nil pointer dereference");
    const bad = await run({}, { FAKE_AGY_SCENARIO: "bad-json" });
    expect(bad.rawStdoutTail).toContain("this is not json");
    expect(bad.events.some((e) => e.kind === "final")).toBe(false);
  });

  test("wrong-model: agy refuses the slug (no silent fallback) with the documented envelope and no init", async () => {
    const r = await run({}, { FAKE_AGY_SCENARIO: "wrong-model" });
    expect(r.stdout.trim().split("\n")).toHaveLength(1);
    expect(lastResult(r)).toMatchObject({ conversation_id: "", status: "ERROR", num_turns: 0 });
    expect(String(lastResult(r).error)).toContain(`model ${MODEL} is not recognized as a known model or custom model in settings`);
    expect(agyAdapter.explain?.(r)).toContain(`model "${MODEL}"`);
    // A gemini base name without its effort suffix is refused by the real CLI too.
    expect(agyAdapter.classify(await run({ model: "gemini-3.7-flash" }))).toBe("task_failed");
  });
});

describe("fake agy sign-in: where agy keeps it", () => {
  test("no token file and no keyring: the documented headless failure, fast, before any stream", async () => {
    const d = dirs("signedout", false);
    const r = await run({}, {}, d);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderrTail).toBe("Error: authentication required. Run 'agy' to log in, then retry.\n");
    expect(agyAdapter.classify(r)).toBe("auth");
    expect(extras(d).signedIn).toBe(false);
  });

  test("the Secret Service keyring (D-Bus session) keeps the login under any HOME; without D-Bus a private HOME loses it", async () => {
    const d = dirs("keyring", false);
    const keyring = join(d.home, "..", "keyring");
    writeFileSync(keyring, "login");
    expect(agyAdapter.classify(await run({}, { DBUS_SESSION_BUS_ADDRESS: "unix:path=/run/user/1000/bus", FAKE_AGY_KEYRING: keyring }, d))).toBeUndefined();
    expect(agyAdapter.classify(await run({}, { FAKE_AGY_KEYRING: keyring }, dirs("nobus", false)))).toBe("auth");
  });

  test("FAKE_AGY_AUTH=oauth: the observed OAuth URL, the 60 s wait (scaled), then the envelope", async () => {
    const r = await run({}, { FAKE_AGY_AUTH: "oauth" }, dirs("oauth", false));
    expect(r.stderrTail).toContain("https://accounts.google.com/o/oauth2/v2/auth?");
    expect(r.stderrTail).toContain("Waiting for authentication (timeout 60s)...");
    expect(lastResult(r)).toMatchObject({ conversation_id: "", status: "ERROR", error: "authentication failed or timed out" });
    expect(agyAdapter.classify(r)).toBe("auth");
  });

  test("`agy models` (the readiness probe): slugs when signed in; exit 1 'Please sign in…' when not", async () => {
    const inside = await cli(agyAdapter.probes.auth ?? [], dirs("models"));
    expect(inside.code).toBe(0);
    expect(agyAdapter.models?.read(inside.out)).toContain(MODEL);
    expect(agyAdapter.readiness?.({ exitCode: inside.code, stdout: inside.out, stderr: inside.err }, {})).toBe("ready");
    const outside = await cli(["models"], dirs("models-out", false));
    expect(outside.code).toBe(1);
    expect(outside.err).toBe("Error: Please sign in to view available models. Launch the CLI without arguments to sign in.\n");
    expect(agyAdapter.readiness?.({ exitCode: outside.code, stdout: outside.out, stderr: outside.err }, {})).toBe("not_ready");
  });
});

describe("fake agy headless permissions", () => {
  test("route: the repo is the workspace (--add-dir), so a file write is allowed and lands", async () => {
    const d = dirs("route-write");
    const r = await run({}, { FAKE_AGY_SCENARIO: "edits-then-ok" }, d);
    expect(existsSync(join(d.cwd, "FAKE_EDIT.txt"))).toBe(true);
    expect(r.events).toContainEqual({ kind: "file_change", path: join(d.cwd, "FAKE_EDIT.txt"), change: "unknown" });
    expect(extras(d).workspaceRoots).toEqual([d.cwd]);
  });

  test("answer: no workspace, so the same write is soft-denied — nothing lands, the run still exits 0 SUCCESS", async () => {
    const d = dirs("answer-write");
    const r = await run({ mode: "answer" }, { FAKE_AGY_SCENARIO: "edits-then-ok" }, d);
    expect(r.exitCode).toBe(0);
    expect(readdirSync(d.cwd)).toEqual([]);
    expect(lastResult(r)).toMatchObject({ status: "SUCCESS", response: "", denied_actions: [{ action: "write_file", display_name: "WriteToFile" }] });
    expect(r.stderrTail).toContain('jetski: no output produced — a tool required the "write_file" permission');
    expect(foldEvents(r.events).acted).toBe(true);
    expect(agyAdapter.classify(r)).toBe("task_failed");
  });

  test("shell commands are soft-denied in both modes unless skip-permissions or an allow-rule lets them run", async () => {
    const route = await run({}, { FAKE_AGY_SCENARIO: "action" });
    expect(existsSync(join(route.record.cwd, "created-by-tool.txt"))).toBe(false);
    expect(agyAdapter.explain?.(route)).toContain('the "command" permission');
    const d = dirs("allowed");
    writeFileSync(join(d.home, ".gemini", "antigravity-cli", "settings.json"), JSON.stringify({ permissions: { allow: ["command(touch )"] } }));
    expect(agyAdapter.classify(await run({}, { FAKE_AGY_SCENARIO: "action" }, d))).toBeUndefined();
    expect(existsSync(join(d.cwd, "created-by-tool.txt"))).toBe(true);
    const skip = dirs("skip");
    const inv = agyAdapter.invocation(request(skip, {}));
    const yolo = await runInvocation(
      FAKE,
      agyAdapter,
      { ...inv, args: [...inv.args, "--dangerously-skip-permissions"] },
      skip.cwd,
      childEnv(skip.home, skip.rec, { ...inv.env, FAKE_AGY_SCENARIO: "action" }),
      skip.rec,
    );
    expect(yolo.stdout).toContain('"permission_mode":"always-proceed"');
    expect(existsSync(join(skip.cwd, "created-by-tool.txt"))).toBe(true);
  });

  test("the user's MCP servers load in every run — agy has no switch — and a route adds the repo's own", async () => {
    const d = dirs("mcp");
    mkdirSync(join(d.home, ".gemini", "config"), { recursive: true });
    writeFileSync(
      join(d.home, ".gemini", "config", "mcp_config.json"),
      JSON.stringify({ mcpServers: { boom: { command: "boom" }, off: { command: "x", disabled: true } } }),
    );
    mkdirSync(join(d.cwd, ".agents"), { recursive: true });
    writeFileSync(join(d.cwd, ".agents", "mcp_config.json"), JSON.stringify({ mcpServers: { repo: { command: "r" } } }));
    await run({}, {}, d);
    expect(extras(d).mcpServers).toEqual(["boom", "repo"]);
    rmSync(d.rec, { recursive: true });
    mkdirSync(d.rec);
    await run({ mode: "answer" }, {}, d);
    expect(extras(d).mcpServers).toEqual(["boom"]);
  });
});

describe("fake agy conversations", () => {
  test("--conversation resumes: same id, cumulative counters in the result, this turn's own usage in the steps", async () => {
    const d = dirs("resume");
    const first = await run({ mode: "answer" }, {}, d);
    const id = foldEvents(first.events).sessionId ?? "";
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(existsSync(join(d.home, ".gemini", "antigravity-cli", "conversations", `${id}.db`))).toBe(true);
    rmSync(d.rec, { recursive: true });
    mkdirSync(d.rec);
    const again = await run({ mode: "answer", resumeSessionId: id }, {}, d);
    expect(foldEvents(again.events).sessionId).toBe(id);
    expect(lastResult(again)).toMatchObject({ num_turns: 2, usage: { input_tokens: 10418 + 10302 } });
    // No checkpoint on a later turn: only the one model call counts.
    expect(foldEvents(again.events).usage).toEqual({ inputTokens: 10302, outputTokens: 582, cachedInputTokens: 8113 });
    expect(agyAdapter.classify(again)).toBeUndefined();
  });

  test("resume: the conversation is gone from history — a warning, a new id, exit 0, classified as a failed follow-up", async () => {
    const id = "99999999-2222-4333-8444-555555555555";
    const r = await run({ mode: "answer", resumeSessionId: id }, { FAKE_AGY_SCENARIO: "resume" });
    expect(r.exitCode).toBe(0);
    expect(r.stderrTail).toContain(`warning: conversation "${id}" not found`);
    expect(foldEvents(r.events).sessionId).not.toBe(id);
    expect(agyAdapter.classify(r)).toBe("task_failed");
    expect(agyAdapter.explain?.(r)).toContain(`no longer has conversation ${id}`);
  });
});

describe("fake agy command line (Go flag parsing)", () => {
  test.each(["--non-interactive", "--yolo", "--cwd=/x", "--prompt-file=x", "--strict-mcp-config", "--mcp-config=x", "--approval-mode=yolo", "--session-id=x"])(
    "%s does not exist: Go's message, the usage dump, exit 2",
    async (flag) => {
      const r = await cli([flag, "-p", "hi"], dirs("flags"));
      expect(r.code).toBe(2);
      expect(r.err).toStartWith(`flag provided but not defined: -${flag.replace(/^--/, "").split("=")[0]}\nUsage of agy:\n`);
    },
  );

  test("values: -p needs one and swallows the next token; durations and booleans are Go's", async () => {
    const d = dirs("values");
    expect((await cli(["-p"], d)).err).toStartWith("flag needs an argument: -p\n");
    expect((await cli(["--print-timeout", "90", "-p", "x"], d)).err).toStartWith(
      'invalid value "90" for flag -print-timeout: time: missing unit in duration "90"\n',
    );
    expect((await cli(["--print-timeout=banana", "-p", "x"], d)).err).toStartWith(
      'invalid value "banana" for flag -print-timeout: time: invalid duration "banana"\n',
    );
    expect((await cli(["--sandbox=bogus", "-p", "x"], d)).err).toStartWith(
      'invalid boolean value "bogus" for  -sandbox: strconv.ParseBool: parsing "bogus": invalid syntax\n',
    );
    // A string flag takes the next token whatever it looks like: the flag became the prompt.
    const e = dirs("swallow");
    const swallowed = await cli(["-p", "--output-format"], e);
    expect(swallowed).toMatchObject({ code: 0, out: "PONG-FROM-FAKE\n" });
    expect(extras(e)).toMatchObject({ signedIn: true, workspaceRoots: [] });
  });

  test("-p ignores stdin, so an open pipe does not block it; without -p stdin is read to EOF", async () => {
    const d = dirs("stdin");
    const proc = Bun.spawn([FAKE, "-p", "say pong", "--output-format", "stream-json"], {
      cwd: d.cwd,
      env: childEnv(d.home, d.rec),
      stdin: "pipe",
      stdout: "pipe",
    });
    expect(await proc.exited).toBe(0);
    proc.stdin.end();
    const piped = await run();
    expect(piped.record.stdin).toBe("say pong");
  });

  test("an empty stdin with no -p falls to the TUI: text on stdout, exit 0 — bad output, not an empty answer", async () => {
    const d = dirs("tui");
    const inv: Invocation = { ...agyAdapter.invocation(request(d, {})), stdin: "" };
    const r = await runInvocation(FAKE, agyAdapter, inv, d.cwd, childEnv(d.home, d.rec, inv.env), d.rec);
    expect(r.exitCode).toBe(0);
    expect(r.rawStdoutTail).toContain("interactive UI");
    expect(agyAdapter.classify(r)).toBe("bad_output");
  });

  test("--input-format stream-json without stream-json output exits 2; an unknown --output-format is text", async () => {
    const d = dirs("formats");
    expect((await cli(["--input-format", "stream-json"], d)).code).toBe(2);
    const text = await cli(["--output-format", "xml", "-p", "hi"], d);
    expect(text).toMatchObject({ code: 0, out: "PONG-FROM-FAKE\n" });
    // A subcommand has its own flag set: global flags go before it.
    expect(await cli(["models", "--output-format", "json"], d)).toMatchObject({ code: 1, err: "flags provided but not defined: -output-format\n" });
    expect(JSON.parse((await cli(["--output-format", "json", "models"], d)).out).command.data.models[0]).toEqual({
      id: MODEL,
      label: "Gemini 3.8 Flash (High)",
    });
  });

  test("version, help per persona, a dropped flag gone from help and parser alike", async () => {
    const d = dirs("help");
    expect((await cli(["--version"], d)).out).toBe("1.2.17\n");
    const help = (await cli(agyAdapter.probes.help, d)).out;
    for (const { flag } of agyAdapter.probes.requiredFlags) expect(help).toMatch(new RegExp(`\\s${flag}\\s`));
    expect(help).toContain("0 waits until the turn completes (default 0s)");
    const old = (await cli(["--help"], d, { FAKE_AGY_VERSION: "1.1.8" })).out;
    expect(old).toContain("(default 5m0s)");
    expect(old).not.toContain("--disable-slash-commands");
    const dropped = await cli(["--help"], d, { FAKE_HELP_DROP_FLAG: "--json-schema" });
    expect(dropped.out).not.toContain("--json-schema");
    expect((await cli(["--json-schema", "x", "-p", "hi"], d, { FAKE_HELP_DROP_FLAG: "--json-schema" })).code).toBe(2);
  });

  test("the child env the adapter sets: the updater stays off, the log goes where --log-file says", async () => {
    const d = dirs("env");
    const iso = join(d.home, "..", "iso");
    mkdirSync(iso);
    const r = await run({ mode: "answer", isolatedHome: iso }, {}, d);
    expect(r.record.env.AGY_CLI_DISABLE_AUTO_UPDATE).toBe("true");
    expect(readFileSync(join(iso, "agy.log"), "utf8")).toContain("Auto-update disabled via environment variable");
    expect(existsSync(join(d.home, ".gemini", "antigravity-cli", "cli.log"))).toBe(false);
    expect(existsSync(join(d.home, ".gemini", "antigravity-cli", "updater", "last_check.timestamp"))).toBe(false);
    const plain = dirs("env-plain");
    await cli(["-p", "hi"], plain);
    expect(existsSync(join(plain.home, ".gemini", "antigravity-cli", "updater", "last_check.timestamp"))).toBe(true);
  });
});

describe("fake agy old build (1.0.16): print mode writes nothing to a pipe", () => {
  test("--version names it, and the adapter's variant probe refuses it with the version needed", async () => {
    const d = dirs("old");
    const version = await cli(["--version"], d, { FAKE_AGY_SCENARIO: "old-build" });
    expect(version.out).toBe("1.0.16\n");
    const variant = agyAdapter.variant?.read({ exitCode: version.code, stdout: version.out, stderr: version.err }) ?? "";
    expect(agyAdapter.variant?.traits(variant).refuse).toContain("writes nothing to a pipe");
  });

  test("`agy -p` over a pipe: exit 0 and not one byte — which the adapter never calls an empty answer", async () => {
    const d = dirs("old-silent");
    const r = await cli(["-p", "Reply with the word PONG only"], d, { FAKE_AGY_SCENARIO: "old-build" });
    expect(r).toEqual({ code: 0, out: "", err: "" });
    const o = outcomeOf(agyAdapter, r.out, r.err, r.code, null);
    expect(agyAdapter.classify(o)).toBe("bad_output");
    expect(agyAdapter.explain?.(o)).toContain("wrote nothing to its pipe");
  });

  test("orchestrate's argv: the build has no --output-format (Go usage error, exit 2)", async () => {
    const r = await run({}, { FAKE_AGY_SCENARIO: "old-build" });
    expect(r.exitCode).toBe(2);
    expect(r.stderrTail).toStartWith("flag provided but not defined: -output-format\n");
    expect(agyAdapter.classify(r)).toBe("task_failed");
  });

  test("`-p` with a stdin pipe left open hangs until the pipe closes (#245)", async () => {
    const d = dirs("old-hang");
    const proc = Bun.spawn([FAKE, "-p", "hi"], { cwd: d.cwd, env: childEnv(d.home, d.rec, { FAKE_AGY_SCENARIO: "old-build" }), stdin: "pipe", stdout: "pipe" });
    expect(await Promise.race([proc.exited.then(() => "exited"), Bun.sleep(400).then(() => "blocked")])).toBe("blocked");
    proc.stdin.end();
    expect(await proc.exited).toBe(0);
  });
});

describe("fake agy process behaviour", () => {
  test("hang: after init, a SIGTERM-proof child and grandchild die only with the group SIGKILL", async () => {
    const d = dirs("hang");
    const inv = agyAdapter.invocation(request(d, {}));
    const proc = Bun.spawn([FAKE, ...inv.args], {
      cwd: d.cwd,
      env: childEnv(d.home, d.rec, { ...inv.env, FAKE_AGY_SCENARIO: "hang" }),
      stdin: new TextEncoder().encode("x"),
      stdout: "pipe",
      detached: true,
    });
    const grandchild = Number((await waitForFile(join(d.rec, "grandchildren"))).trim());
    await waitForFile(join(d.rec, "hangers"));
    process.kill(-proc.pid, "SIGTERM");
    expect(await Promise.race([proc.exited.then(() => "exited"), Bun.sleep(300).then(() => "alive")])).toBe("alive");
    process.kill(-proc.pid, "SIGKILL");
    const started = Date.now();
    await proc.exited;
    expect(Date.now() - started).toBeLessThan(3000);
    await waitFor(() => !alive(grandchild));
  });

  test("SIGTERM mid-turn ends it as agy does: an ERROR result `context canceled`, exit 1", async () => {
    const d = dirs("sigterm");
    const inv = agyAdapter.invocation(request(d, {}));
    const proc = Bun.spawn([FAKE, ...inv.args], {
      cwd: d.cwd,
      env: childEnv(d.home, d.rec, { ...inv.env, FAKE_AGY_SCENARIO: "slow", FAKE_DELAY_MS: "30000" }),
      stdin: new TextEncoder().encode("x"),
      stdout: "pipe",
    });
    const reader = proc.stdout.getReader();
    let seen = "";
    while (!seen.includes('"user_input"')) seen += new TextDecoder().decode((await reader.read()).value);
    proc.kill("SIGTERM");
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) seen += new TextDecoder().decode(chunk.value);
    expect(await proc.exited).toBe(1);
    expect(JSON.parse(seen.trim().split("\n").at(-1) ?? "{}").result).toMatchObject({ status: "ERROR", error: "context canceled" });
  });
});
