/**
 * The runner without a subprocess: a fake transport whose channel plays lines and reports the end
 * it is told to (or the abort it saw), so prepare → stream → classify is checked on its own.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Adapter, AgentEvent, RunRequest } from "../../src/backends/contract.ts";
import { claudeAdapter } from "../../src/backends/claude/index.ts";
import { runAttempt, type AttemptSpec } from "../../src/runner/attempt.ts";
import { attemptGuards } from "../../src/runner/guards.ts";
import { streamAttempt } from "../../src/runner/stream.ts";
import type { Channel, Prepared, StreamIO, Transport, TransportEnd } from "../../src/runner/transports/types.ts";
import { agent } from "../helpers/config.ts";

/** One JSON line per event; the fake adapter parses them back. */
const line = (e: AgentEvent): string => JSON.stringify(e);
const adapter: Adapter = {
  ...claudeAdapter,
  parse: (l) => (l.startsWith("{") ? [JSON.parse(l) as AgentEvent] : []),
  classify: (o) => (o.exitCode === 0 ? undefined : "task_failed"),
};

interface Script {
  lines: string[];
  end?: Partial<TransportEnd>;
}

/** Plays its lines; if aborted meanwhile, ends as the abort reason says, as process/ would. */
function channel(script: Script, seen: { io?: StreamIO } = {}): Channel {
  return {
    target: "/fake/cli",
    run: async (io) => {
      seen.io = io;
      for (const l of script.lines) {
        if (io.signal.aborted) break;
        io.onLine(l);
      }
      const stopped = io.signal.aborted ? (io.signal.reason as TransportEnd["endReason"]) : undefined;
      return {
        endReason: stopped ?? "exit",
        exitCode: stopped ? null : 0,
        signal: stopped ? "SIGTERM" : null,
        stderrTail: "",
        rawStdoutTail: "",
        ...script.end,
      };
    },
  };
}

function transport(prepared: (request: RunRequest) => Prepared): Transport & { inputs: RunRequest[] } {
  const inputs: RunRequest[] = [];
  return { kind: "fake", inputs, prepare: async ({ request }) => (inputs.push(request), prepared(request)) };
}

const request: RunRequest = { mode: "answer", prompt: "p", cwd: "/tmp" };

function spec(t: Transport, more: Partial<AttemptSpec> = {}): AttemptSpec {
  return { agent: agent("a", "claude"), adapter, request, env: {}, timeoutMs: 10_000, fingerprint: false, transport: t, ...more, maxDepth: more.maxDepth ?? 3 };
}

describe("the recursion guard lives inside the attempt", () => {
  // Every delegate starts through runAttempt (the-attempt-owns-the-transports in .dependency-cruiser.cjs),
  // so a workflow step or smoke, which never called the service-level check, is refused here too.
  for (const [what, env] of [
    ["at the limit", { ORCHESTRATE_DEPTH: "3" }],
    ["past the limit", { ORCHESTRATE_DEPTH: "7" }],
    ["with a garbled depth (fails closed)", { ORCHESTRATE_DEPTH: "two" }],
  ] as const) {
    test(`${what}: refused before the transport is asked for anything`, async () => {
      const t = transport(() => ({ ok: false, failure: "not_installed", reason: "must not be reached" }));
      const result = await runAttempt(spec(t, { env, maxDepth: 3 }));
      expect(result.failure).toBe("recursion_limit");
      expect(result.spawned).toBe(false);
      expect(result.reason).toContain("maxDepth 3");
      expect(t.inputs).toEqual([]);
    });
  }

  test("below the limit the attempt proceeds to its transport", async () => {
    const t = transport(() => ({ ok: false, failure: "not_installed", reason: "not here" }));
    const result = await runAttempt(spec(t, { env: { ORCHESTRATE_DEPTH: "2" }, maxDepth: 3 }));
    expect(result.failure).toBe("not_installed");
    expect(t.inputs.length).toBe(1);
  });
});

describe("stream: lines → events → fold, guards abort the channel", () => {
  test("events are folded and reported as they arrive", async () => {
    const events: AgentEvent[] = [];
    const activity: string[] = [];
    const streamed = await streamAttempt({
      channel: channel({
        lines: [
          line({ kind: "session", sessionId: "s1" }),
          "plain text",
          line({ kind: "tool", name: "Bash", detail: "ls", phase: "start", acts: true }),
          line({ kind: "text", text: "done" }),
        ],
      }),
      parse: adapter.parse,
      guards: attemptGuards({}),
      timeoutMs: 1000,
      onEvent: (e) => events.push(e),
      onActivity: (t) => activity.push(t),
    });
    expect(events.map((e) => e.kind)).toEqual(["session", "tool", "text"]);
    expect(activity).toEqual(["running ls", "writing its answer"]);
    expect(streamed.run).toMatchObject({ sessionId: "s1", text: "done", acted: true });
    expect(streamed.trip).toBeUndefined();
    expect(streamed.end.endReason).toBe("exit");
  });

  test("a budget trip aborts the channel with budget_exceeded; later lines are not read", async () => {
    const seen: { io?: StreamIO } = {};
    const streamed = await streamAttempt({
      channel: channel({ lines: [line({ kind: "usage", usage: { inputTokens: 500 } }), line({ kind: "text", text: "late" })] }, seen),
      parse: adapter.parse,
      guards: attemptGuards({ maxTokens: 100 }),
      timeoutMs: 1000,
    });
    expect(seen.io?.signal.reason).toBe("budget_exceeded");
    expect(streamed.trip?.guard).toBe("budget");
    expect(streamed.end.endReason).toBe("budget_exceeded");
    expect(streamed.run.text).toBe("");
  });

  test("the caller's signal reaches the channel, combined with the guards'", async () => {
    const caller = new AbortController();
    caller.abort("shutdown");
    const seen: { io?: StreamIO } = {};
    const streamed = await streamAttempt({
      channel: channel({ lines: [line({ kind: "text", text: "x" })] }, seen),
      parse: adapter.parse,
      guards: [],
      timeoutMs: 1000,
      signal: caller.signal,
    });
    expect(seen.io?.signal.aborted).toBe(true);
    expect(streamed.end.endReason).toBe("shutdown");
  });

  test("timeout and stall limits are handed to the channel as given", async () => {
    const seen: { io?: StreamIO } = {};
    await streamAttempt({ channel: channel({ lines: [] }, seen), parse: adapter.parse, guards: [], timeoutMs: 1234, stallMs: 567 });
    expect(seen.io).toMatchObject({ timeoutMs: 1234, stallMs: 567 });
  });
});

/** Plays its lines, then holds the run open until it is aborted (a CLI sitting in its retry backoff). */
function holding(lines: string[], stderr: string[] = []): Channel {
  return {
    target: "/fake/cli",
    run: async (io) => {
      for (const l of lines) io.onLine(l);
      for (const l of stderr) io.onStderrLine?.(l);
      if (!io.signal.aborted) await new Promise((resolve) => io.signal.addEventListener("abort", resolve, { once: true }));
      return { endReason: io.signal.reason as TransportEnd["endReason"], exitCode: null, signal: "SIGTERM", stderrTail: "", rawStdoutTail: "" };
    },
  };
}

describe("stream: capacity retries end the run fast", () => {
  const capacity = line({ kind: "retry", message: "Reconnecting... 1/5 (429)", failure: "capacity" });

  test("one capacity retry and then silence: the silence timer trips after the window", async () => {
    const started = Date.now();
    const streamed = await streamAttempt({ channel: holding([capacity]), parse: adapter.parse, guards: attemptGuards({}, 150), timeoutMs: 10_000 });
    expect(streamed.trip?.guard).toBe("capacity_retry");
    expect(streamed.end.endReason).toBe("cancelled");
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  test("a retry line on stderr counts, read by the backend's stderr parser", async () => {
    const parseStderr = (l: string): AgentEvent[] => (l.includes("stream error") ? [{ kind: "retry", message: l, failure: "capacity" }] : []);
    const streamed = await streamAttempt({
      channel: holding([], ["level=INFO message=init", 'level=ERROR message="stream error"', 'level=ERROR message="stream error"']),
      parse: adapter.parse,
      parseStderr,
      guards: attemptGuards({}),
      timeoutMs: 10_000,
    });
    expect(streamed.trip?.guard).toBe("capacity_retry");
    expect(streamed.events.map((e) => e.kind)).toEqual(["retry", "retry"]);
  });

  test("without a stderr parser, stderr lines are not even asked for", async () => {
    const seen: { io?: StreamIO } = {};
    await streamAttempt({ channel: channel({ lines: [] }, seen), parse: adapter.parse, guards: [], timeoutMs: 1000 });
    expect(seen.io?.onStderrLine).toBeUndefined();
  });

  test("progress after the first retry calls the timer off: the run ends by itself, answered", async () => {
    const streamed = await streamAttempt({
      channel: {
        target: "/fake/cli",
        run: async (io) => {
          io.onLine(capacity);
          await Bun.sleep(50);
          io.onLine(line({ kind: "text", text: "PONG" }));
          await Bun.sleep(300);
          return { endReason: io.signal.aborted ? "cancelled" : "exit", exitCode: 0, signal: null, stderrTail: "", rawStdoutTail: "" };
        },
      },
      parse: adapter.parse,
      guards: attemptGuards({}, 150),
      timeoutMs: 10_000,
    });
    expect(streamed.trip).toBeUndefined();
    expect(streamed.end.endReason).toBe("exit");
    expect(streamed.run.text).toBe("PONG");
  });
});

describe("runAttempt through a transport", () => {
  test("a refusal before anything started: not_installed carries no commandPath", async () => {
    const t = transport(() => ({ ok: false, failure: "not_installed", reason: "x was not found" }));
    const result = await runAttempt(spec(t));
    expect(result).toMatchObject({ failure: "not_installed", reason: "x was not found", spawned: false, exitCode: null, events: [], stderrTail: "", request });
    expect(result.commandPath).toBeUndefined();
    expect(result.run.text).toBe("");
  });

  test("a signed-out refusal names the command it found", async () => {
    const t = transport(() => ({ ok: false, failure: "auth", reason: "unavailable", target: "/bin/cli" }));
    expect(await runAttempt(spec(t))).toMatchObject({ failure: "auth", reason: "unavailable", commandPath: "/bin/cli", spawned: false });
  });

  test("a run: the prepared request is what ran and is returned; the channel's target is the commandPath", async () => {
    const completed = { ...request, variant: "v2", disableMcpServers: ["mine"] };
    const t = transport(() => ({ ok: true, request: completed, channel: channel({ lines: [line({ kind: "text", text: "the answer" })] }) }));
    const result = await runAttempt(spec(t));
    expect(t.inputs).toEqual([{ ...request, timeoutSec: 10 }]);
    expect(result).toMatchObject({ reason: "answered", spawned: true, exitCode: 0, commandPath: "/fake/cli", request: completed });
    expect(result.failure).toBeUndefined();
    expect(result.run.text).toBe("the answer");
    expect(result.treeBefore).toBeUndefined();
  });

  test("an agent's limit trips mid-run and the attempt is a budget failure", async () => {
    const t = transport((r) => ({ ok: true, request: r, channel: channel({ lines: [line({ kind: "usage", usage: { inputTokens: 500 } })] }) }));
    const result = await runAttempt(spec(t, { agent: agent("a", "claude", { limits: { maxTokens: 100 } }) }));
    expect(result.failure).toBe("budget");
    expect(result.reason).toStartWith("budget exceeded (used 500 tokens; limit 100 tokens)");
  });

  test("a hopeless retry is unavailable; with the caller's cancel it is a cancel", async () => {
    const hopeless = line({ kind: "retry", message: "waiting for network", hopeless: true });
    const t = transport((r) => ({ ok: true, request: r, channel: channel({ lines: [hopeless] }) }));
    expect(await runAttempt(spec(t))).toMatchObject({ failure: "transport", reason: "unavailable" });
    const caller = new AbortController();
    const cancelling: Transport = {
      kind: "fake",
      prepare: async (i) => ({
        ok: true,
        request: i.request,
        channel: { target: "/fake/cli", run: async (io) => (caller.abort("cancelled"), channel({ lines: [hopeless] }).run(io)) },
      }),
    };
    expect(await runAttempt(spec(cancelling, { signal: caller.signal }))).toMatchObject({ failure: "cancelled", reason: "cancelled by the client" });
  });

  test("a capacity loop is unavailable, and carries the wait the provider announced", async () => {
    const loop = [line({ kind: "retry", message: "429", failure: "capacity" }), line({ kind: "retry", message: "429", failure: "capacity", retryAfterSec: 3 })];
    const t = transport((r) => ({ ok: true, request: r, channel: holding(loop) }));
    expect(await runAttempt(spec(t))).toMatchObject({ failure: "capacity", reason: "unavailable", retryAfterSec: 3 });
    const long = transport((r) => ({
      ok: true,
      request: r,
      channel: holding([line({ kind: "retry", message: "429", failure: "capacity", retryAfterSec: 90 })]),
    }));
    expect(await runAttempt(spec(long))).toMatchObject({ failure: "capacity", retryAfterSec: 90 });
  });

  test("a retry-after on a run that did not fail for capacity is not carried", async () => {
    const t = transport((r) => ({
      ok: true,
      request: r,
      channel: channel({ lines: [line({ kind: "retry", message: "429", failure: "capacity", retryAfterSec: 2 }), line({ kind: "text", text: "ok" })] }),
    }));
    const result = await runAttempt(spec(t));
    expect(result.failure).toBeUndefined();
    expect(result.retryAfterSec).toBeUndefined();
  });

  test("the transport is given the attempt's budget in whole seconds, rounded up", async () => {
    const t = transport((r) => ({ ok: true, request: r, channel: channel({ lines: [] }) }));
    await runAttempt(spec(t, { timeoutMs: 90_001 }));
    expect(t.inputs.map((r) => r.timeoutSec)).toEqual([91]);
  });

  test("a failure carries the backend's explanation; a success asks for none", async () => {
    const asked: number[] = [];
    const explaining: Adapter = {
      ...adapter,
      explain: (o) => (asked.push(o.exitCode ?? -1), o.stderrTail.includes("root") ? "claude refuses bypassPermissions as root" : undefined),
    };
    const failing = transport((r) => ({ ok: true, request: r, channel: channel({ lines: [], end: { exitCode: 1, stderrTail: "running as root" } }) }));
    expect(await runAttempt(spec(failing, { adapter: explaining }))).toMatchObject({
      failure: "task_failed",
      explanation: "claude refuses bypassPermissions as root",
    });
    const fine = transport((r) => ({ ok: true, request: r, channel: channel({ lines: [line({ kind: "text", text: "ok" })] }) }));
    const ok = await runAttempt(spec(fine, { adapter: explaining }));
    expect(ok.failure).toBeUndefined();
    expect(ok.explanation).toBeUndefined();
    expect(asked).toEqual([1]);
  });

  test("a failed start is not spawned", async () => {
    const t = transport((r) => ({
      ok: true,
      request: r,
      channel: channel({ lines: [], end: { endReason: "spawn_failed", exitCode: null, startError: "ENOENT" } }),
    }));
    expect(await runAttempt(spec(t))).toMatchObject({ failure: "not_installed", spawned: false, reason: "could not start the CLI (ENOENT)" });
  });
});

describe("the side channel is read inside the attempt", () => {
  const dir = mkdtempSync(join(tmpdir(), "orch-side-"));
  const file = join(dir, "served-model");
  writeFileSync(file, "model-from-the-side\n");
  const reads: string[] = [];
  const withSide: Adapter = {
    ...adapter,
    sideChannel: { kind: "file", path: () => (reads.push("read"), file), read: (text) => ({ models: [text.trim()] }) },
  };
  const served = () => transport((r) => ({ ok: true, request: r, channel: channel({ lines: [line({ kind: "text", text: "the answer" })] }) }));
  const failing = () => transport((r) => ({ ok: true, request: r, channel: channel({ lines: [], end: { exitCode: 1 } }) }));

  test("after a served run, for every caller: route, consult, review and smoke get the same report", async () => {
    reads.length = 0;
    const result = await runAttempt(spec(served(), { adapter: withSide }));
    expect(result.failure).toBeUndefined();
    expect(result.side.models).toEqual(["model-from-the-side"]);
    expect(reads).toHaveLength(1);
  });

  test("a failed run's is not read unless the caller asks for it (an answer turn's usage), and never when told not to", async () => {
    reads.length = 0;
    expect((await runAttempt(spec(failing(), { adapter: withSide }))).side.models).toEqual([]);
    expect(reads).toHaveLength(0);
    expect((await runAttempt(spec(failing(), { adapter: withSide, sideChannel: "spawned" }))).side.models).toEqual(["model-from-the-side"]);
    expect((await runAttempt(spec(served(), { adapter: withSide, sideChannel: "never" }))).side.models).toEqual([]);
    expect(reads).toHaveLength(1);
  });
});
