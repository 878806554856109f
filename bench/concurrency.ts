/**
 * Concurrency: 8 routes at once, each in its own git repo, through ONE server process (one MCP
 * session, 8 concurrent tools/call), against a single route through the same server. Run twice:
 *
 * - backend latency 300 ms (FAKE_DELAY_MS): the fake waits like a real agent waiting on its API, so
 *   the ratio shows whether the server serializes routes (locks, queues, SQLite) — the target row;
 * - backend answering at once: pure CPU. Every fake is a Bun script (~25 ms of CPU to start), so on
 *   a machine with few cores the ratio is bounded by cores, not by orchestrate (informational).
 *
 * The machine's own ratio is measured alongside: the same 8 fakes spawned directly (same argv, env,
 * cwd, stdin as the server gave them) vs one. And the server's CPU time per route, from /proc.
 */
import { readFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import { FAKES_DIR, type Recording } from "../fakes/lib/sandbox.ts";
import { interleave, iterations, median, ms, ratio, say, section, type Row } from "./helpers.ts";
import { openRouteWorld } from "./route-world.ts";

const CONCURRENT = 8;
const LATENCY_MS = 300;

export async function run(): Promise<Row[]> {
  section(`concurrency: ${CONCURRENT} concurrent routes in different cwds vs one, one server process`);
  const withLatency = await measure(LATENCY_MS);
  const atOnce = await measure(0);
  const row = (label: string, m: Measured, target: boolean): Row => ({
    benchmark: `${CONCURRENT} concurrent routes vs one (${label})`,
    value: ms(m.eight),
    reference: ms(m.one),
    ratio: ratio(m.eight, m.one),
    target: target ? "≤ 1.2×" : "—",
    ...(target ? { pass: m.eight <= 1.2 * m.one } : {}),
    note: `${target ? `one server, one MCP session, ${CONCURRENT} tools/call in flight; the fake sleeps ${LATENCY_MS} ms like a backend waiting on its API` : `fake answers at once: CPU-bound on ${cpus().length} cores`}; the same fakes spawned directly: ${ratio(m.directEight, m.directOne)} (${ms(m.directEight)} vs ${ms(m.directOne)}); server CPU ${ms(m.serverCpuPerRoute)} per route`,
  });
  return [row(`backend latency ${LATENCY_MS} ms`, withLatency, true), row("backend answers at once", atOnce, false)];
}

interface Measured {
  one: number;
  eight: number;
  directOne: number;
  directEight: number;
  serverCpuPerRoute: number;
}

async function measure(delayMs: number): Promise<Measured> {
  const world = await openRouteWorld(CONCURRENT, { FAKE_DELAY_MS: String(delayMs) });
  try {
    const [first] = world.repos;
    if (!first) throw new Error("no repos");
    // Warm: handlers, store, readiness cache, and each repo's first git status.
    await Promise.all(world.repos.map((r) => world.route(r)));
    const runs = world.box.recordings("opencode").filter((r) => r.argv[0] === "run");
    const direct = world.repos.map((repo) => runs.filter((r) => r.cwd === repo).at(-1) as Recording);
    const n = iterations(delayMs > 0 ? 6 : 10);
    const pid = world.session.pid ?? 0;
    const cpu0 = cpuMs(pid);
    const samples = await interleave(
      {
        one: () => timed(() => world.route(first)),
        eight: () => timed(() => Promise.all(world.repos.map((r) => world.route(r)))),
        directOne: () => timed(() => runDirect(direct[0] as Recording)),
        directEight: () => timed(() => Promise.all(direct.map(runDirect))),
      },
      n,
      1,
    );
    const routes = (n + 1) * (1 + CONCURRENT);
    const m = {
      one: median(samples.one),
      eight: median(samples.eight),
      directOne: median(samples.directOne),
      directEight: median(samples.directEight),
      serverCpuPerRoute: (cpuMs(pid) - cpu0) / routes,
    };
    say(
      `fake delay ${delayMs} ms: one ${ms(m.one)}  ${CONCURRENT} concurrent ${ms(m.eight)}  ${ratio(m.eight, m.one)}  |  fakes spawned directly: one ${ms(m.directOne)}  ${CONCURRENT} ${ms(m.directEight)}  ${ratio(m.directEight, m.directOne)}  |  server CPU ${ms(m.serverCpuPerRoute)}/route  (n=${n})`,
    );
    return m;
  } finally {
    await world.close();
  }
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

/** utime + stime of a process, from /proc/<pid>/stat (clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function runDirect(rec: Recording): Promise<void> {
  const proc = Bun.spawn([join(FAKES_DIR, "opencode"), ...rec.argv], {
    cwd: rec.cwd,
    env: rec.env,
    stdin: rec.stdin ? new TextEncoder().encode(rec.stdin) : "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [, , code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`direct fake run exited ${code}`);
}

if (import.meta.main) console.log(await run());
