/**
 * The kill path: a leader whose grandchild ignores SIGTERM and holds the stdout pipe open. Each test
 * must end with no live member of the group, within grace + margin (timing is asserted only here).
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { groupMembers, processAlive } from "../../src/process/kill.ts";
import { killAllLive, liveCount } from "../../src/process/live.ts";
import { runProcess, type ProcessOptions, type ProcessResult } from "../../src/process/spawn.ts";

const GRACE_MS = 400;
/** Scheduling slack on a loaded CI machine. */
const MARGIN_MS = 1500;
const env = { PATH: process.env.PATH ?? "/usr/bin:/bin" };

/**
 * A grandchild that ignores SIGTERM and keeps our stdout, and a leader that ignores SIGTERM too
 * (`leader: "ignore"`) or dies on it (`leader: "die"`). Prints "gc <pid>" once both are running.
 */
function hangScript(leader: "ignore" | "die"): string {
  const trap = leader === "ignore" ? "trap '' TERM; " : "";
  // The grandchild prints its pid only after its SIGTERM disposition is set (an ignored signal stays
  // ignored across exec), so a test that kills right after seeing "gc" really meets the hard case.
  return `${trap}(trap '' TERM; exec sh -c 'echo "gc $$"; exec sleep 1000') & exec sleep 1000`;
}

interface Hanging {
  result: Promise<ProcessResult>;
  /** Resolves with the grandchild's pid once it is running. */
  grandchild: Promise<number>;
}

function startHanging(leader: "ignore" | "die", extra: Partial<ProcessOptions> = {}): Hanging {
  let found: (pid: number) => void = () => undefined;
  const grandchild = new Promise<number>((r) => (found = r));
  const result = runProcess({
    command: "/bin/sh",
    args: ["-c", hangScript(leader)],
    cwd: tmpdir(),
    env,
    timeoutMs: 60_000,
    graceMs: GRACE_MS,
    onLine: (line) => line.startsWith("gc ") && found(Number(line.slice(3))),
    ...extra,
  });
  return { result, grandchild };
}

function expectNoSurvivors(result: ProcessResult, grandchild: number): void {
  expect(result.pid).toBeGreaterThan(0);
  expect(processAlive(grandchild)).toBe(false);
  expect(groupMembers(result.pid ?? -1)).toEqual([]);
}

describe("kill paths", () => {
  for (const leader of ["ignore", "die"] as const) {
    test(`timeout (leader ${leader}s SIGTERM) ends the whole group`, async () => {
      const run = startHanging(leader, { timeoutMs: 300 });
      const grandchild = await run.grandchild;
      const result = await run.result;
      expect(result.endReason).toBe("timeout");
      expect(result.durationMs).toBeLessThan(300 + GRACE_MS + MARGIN_MS);
      expectNoSurvivors(result, grandchild);
    });
  }

  test("abort with a known reason records that reason and ends the group", async () => {
    const controller = new AbortController();
    const run = startHanging("ignore", { signal: controller.signal });
    const grandchild = await run.grandchild;
    const abortedAt = Date.now();
    controller.abort("budget_exceeded");
    const result = await run.result;
    expect(result.endReason).toBe("budget_exceeded");
    expect(Date.now() - abortedAt).toBeLessThan(GRACE_MS + MARGIN_MS);
    expectNoSurvivors(result, grandchild);
  });

  test("abort with any other reason is recorded as cancelled", async () => {
    const controller = new AbortController();
    const run = startHanging("die", { signal: controller.signal });
    const grandchild = await run.grandchild;
    controller.abort(new Error("client went away"));
    const result = await run.result;
    expect(result.endReason).toBe("cancelled");
    expectNoSurvivors(result, grandchild);
  });

  test("no output for stallMs ends the run as stalled", async () => {
    const run = startHanging("ignore", { stallMs: 300 });
    const grandchild = await run.grandchild;
    const result = await run.result;
    expect(result.endReason).toBe("stalled");
    expect(result.durationMs).toBeLessThan(300 + GRACE_MS + MARGIN_MS);
    expectNoSurvivors(result, grandchild);
  });

  test("steady output keeps a run with a short stallMs alive", async () => {
    const result = await runProcess({
      command: "/bin/sh",
      args: ["-c", "for i in 1 2 3 4 5 6 7 8; do echo tick $i; sleep 0.1; done"],
      cwd: tmpdir(),
      env,
      timeoutMs: 10_000,
      stallMs: 500,
    });
    expect(result).toMatchObject({ endReason: "exit", exitCode: 0, lines: 8 });
  });

  test("killAllLive ends several groups and empties the registry", async () => {
    const runs = [startHanging("ignore"), startHanging("die"), startHanging("ignore")];
    const grandchildren = await Promise.all(runs.map((run) => run.grandchild));
    expect(liveCount()).toBe(3);
    await killAllLive("shutdown");
    // Resolved only once every run is over: the registry is already empty.
    expect(liveCount()).toBe(0);
    const results = await Promise.all(runs.map((run) => run.result));
    results.forEach((result, i) => {
      expect(result.endReason).toBe("shutdown");
      expectNoSurvivors(result, grandchildren[i] ?? -1);
    });
  });

  test("SIGTERM to a process with installShutdownHandlers kills its groups, then calls onShutdown", async () => {
    const dir = mkdtempSync(join(tmpdir(), "orch-shutdown-"));
    const script = join(dir, "server.ts");
    const src = resolve(import.meta.dir, "../../src/process");
    writeFileSync(
      script,
      `import { installShutdownHandlers } from ${JSON.stringify(join(src, "live.ts"))};
import { runProcess } from ${JSON.stringify(join(src, "spawn.ts"))};
const run = runProcess({ command: "/bin/sh", args: ["-c", ${JSON.stringify(hangScript("ignore"))}], cwd: ${JSON.stringify(dir)},
  env: { PATH: process.env.PATH ?? "" }, timeoutMs: 60000, graceMs: ${GRACE_MS}, onLine: (line) => console.log(line) });
installShutdownHandlers({ onShutdown: async (signal) => {
  const result = await run;
  console.log("ended " + result.endReason + " " + result.pid + " after " + signal);
  process.exit(0);
} });
`,
    );
    const server = Bun.spawn([process.execPath, script], { stdout: "pipe", stderr: "inherit", stdin: "ignore" });
    const lines = readLines(server.stdout);
    const first = await lines.next();
    const grandchild = Number(String(first.value).slice(3));
    expect(grandchild).toBeGreaterThan(0);
    server.kill("SIGTERM");
    const last = await lines.next();
    expect(await server.exited).toBe(0);
    const match = /^ended shutdown (\d+) after SIGTERM$/.exec(String(last.value));
    expect(match).not.toBeNull();
    expect(processAlive(grandchild)).toBe(false);
    expect(groupMembers(Number(match?.[1]))).toEqual([]);
  });
});

async function* readLines(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffered = "";
  for await (const chunk of stream) {
    buffered += decoder.decode(chunk, { stream: true });
    let nl = buffered.indexOf("\n");
    while (nl !== -1) {
      yield buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      nl = buffered.indexOf("\n");
    }
  }
}
