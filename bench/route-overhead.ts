/**
 * Route overhead: `route` through the compiled MCP server (one session for every iteration) to the
 * fake opencode answering at once (FAKE_SCENARIO=ok), against spawning that same fake directly with
 * the argv, env and cwd the server gave it (read back from the fake's recording). The difference is
 * what orchestrate adds to every delegated task: MCP round trip, config, routing, the tree
 * fingerprints before and after, the store writes.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { FAKES_DIR, type Recording } from "../fakes/lib/sandbox.ts";
import { fingerprintTree } from "../src/git/fingerprint.ts";
import { groupAlive } from "../src/process/kill.ts";
import { interleave, iterations, median, ms, say, section, type Row } from "./helpers.ts";
import { openRouteWorld } from "./route-world.ts";

export async function run(): Promise<Row[]> {
  section("route overhead: route via MCP → fake opencode (ok) vs the same fake spawned directly");
  const world = await openRouteWorld();
  try {
    // The first call loads the handlers, arktype, the store and caches the readiness probe.
    await world.route(world.box.repo);
    const runs = world.box.recordings("opencode").filter((r) => r.argv[0] === "run");
    const rec = runs.at(-1);
    if (!rec) throw new Error("the fake opencode recorded no `run` invocation");
    const spawnsBefore = world.box.recordings("opencode").length;
    await world.route(world.box.repo);
    const spawnsPerRoute = world.box.recordings("opencode").length - spawnsBefore;
    // The identity check: opencode's stream never names the model, so a route also runs
    // `opencode export <session>` (src/backends/opencode/machine.ts). A person checking which
    // model answered would run it too; the second row counts it as part of the reference.
    const exportRec = world.box
      .recordings("opencode")
      .filter((r) => r.argv[0] === "export")
      .at(-1);
    if (!exportRec) throw new Error("the fake opencode recorded no `export` invocation");
    const n = iterations(20);
    const samples = await interleave(
      {
        route: () => timed(() => world.route(world.box.repo)),
        direct: () => timed(() => runDirect(rec)),
        directExport: () => timed(() => runDirect(exportRec)),
      },
      n,
      1,
    );
    // Where the overhead goes: the two tree fingerprints (each = git rev-parse + git status + hashing)
    // and a bare MCP round trip through the same session.
    const repo = world.box.repo;
    const fp = await interleave(
      {
        fingerprint: () => timed(() => fingerprintTree(repo, { timeoutMs: 10_000 })),
        revParse: () => timed(() => git(repo, ["rev-parse", "--show-toplevel"])),
        status: () => timed(() => git(repo, ["--no-optional-locks", "status", "--porcelain=v2", "-z", "-uall"])),
        mcpRoundTrip: () => timed(() => world.session.client.callTool({ name: "list_tiers", arguments: {} })),
        // runProcess asks groupAlive(pid) after every child exit: a scan of every /proc/<pid>/stat.
        groupAliveScan: async () => {
          const pid = await exitedGroup();
          return timed(async () => groupAlive(pid));
        },
      },
      n,
      1,
    );
    const route = median(samples.route);
    const direct = median(samples.direct);
    const overhead = route - direct;
    const withExport = direct + median(samples.directExport);
    say(`route ${ms(route)}  direct ${ms(direct)}  overhead ${ms(overhead)}  fake spawns per route: ${spawnsPerRoute}  (n=${n})`);
    const part = (k: keyof typeof fp): string => ms(median(fp[k]));
    const breakdown = `fingerprintTree ${part("fingerprint")} ×2 per route (git rev-parse ${part("revParse")} + git status ${part("status")} + hashing); MCP round trip (list_tiers) ${part("mcpRoundTrip")}; groupAlive() after the child exits ${part("groupAliveScan")} (scans ${procCount()} /proc entries)`;
    say(`breakdown: ${breakdown}`);
    return [
      {
        benchmark: "route overhead (route − direct fake)",
        value: ms(overhead),
        reference: `route ${ms(route)}, direct ${ms(direct)}`,
        ratio: `${(route / direct).toFixed(2)}×`,
        target: "≤ 15 ms",
        pass: overhead <= 15,
        note: `one MCP session, compiled binary; ${spawnsPerRoute} fake spawn(s) per route; ${breakdown}`,
      },
      {
        benchmark: "route overhead over the CLI calls it makes (route − direct run − direct export)",
        value: ms(route - withExport),
        reference: `route ${ms(route)}, direct run + export ${ms(withExport)}`,
        ratio: `${(route / withExport).toFixed(2)}×`,
        target: "≤ 15 ms",
        pass: route - withExport <= 15,
        note: "the export is the model-identity side channel (opencode's stream never names the model), spawned directly with the server's argv, env and cwd",
      },
    ];
  } finally {
    await world.close();
  }
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

/** The pid (= pgid) of a detached child that already exited: the common case after a clean run. */
async function exitedGroup(): Promise<number> {
  const proc = Bun.spawn(["/bin/true"], { detached: true, stdio: ["ignore", "ignore", "ignore"] });
  await proc.exited;
  return proc.pid;
}

function procCount(): number {
  return readdirSync("/proc").filter((name) => /^\d+$/.test(name)).length;
}

async function git(cwd: string, args: string[]): Promise<void> {
  const proc = Bun.spawn(["git", ...args], { cwd, stdin: "ignore", stdout: "pipe", stderr: "pipe", detached: true });
  await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
}

/** The fake exactly as the server ran it: same argv, env, cwd and stdin (opencode takes the prompt there). */
async function runDirect(rec: Recording): Promise<void> {
  const proc = Bun.spawn([join(FAKES_DIR, "opencode"), ...rec.argv], {
    cwd: rec.cwd,
    env: rec.env,
    stdin: rec.stdin ? new TextEncoder().encode(rec.stdin) : "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, , code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0 || out.length === 0) throw new Error(`direct fake run exited ${code}`);
}

if (import.meta.main) console.log(await run());
