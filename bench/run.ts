/**
 * `npm run bench`: every benchmark in turn, then one markdown table (benchmark, value, reference,
 * ratio, target, pass/miss) on stdout, headed by the machine it ran on. Progress goes to stderr.
 *
 *   BENCH_N=<n>         iterations per measured side (each benchmark has its own default)
 *   BENCH_SMALL=1       fingerprint on 5k/20k-file repos instead of 50k/200k
 *   BENCH_ONLY=a,b      only the benchmarks whose names are listed (startup, route, fingerprint,
 *                       concurrency, review, review-block, surface, stream, dashboard, ask, imports)
 *   BENCH_IMPORTS=1     also the per-import startup cost probes (bench/import-cost.ts)
 *   BENCH_NO_PEER_INSTALL=1  never run `npm install mcp-orchestrate` (skip the peer column if absent)
 */
import { readFileSync } from "node:fs";
import { cpus } from "node:os";
import { renderTable, type Row } from "./helpers.ts";

type Bench = { name: string; load: () => Promise<{ run: () => Promise<Row[]> }>; optIn?: boolean };

const BENCHES: Bench[] = [
  { name: "startup", load: () => import("./startup.ts") },
  { name: "route", load: () => import("./route-overhead.ts") },
  { name: "fingerprint", load: () => import("./fingerprint.ts") },
  { name: "worktree", load: () => import("./worktree.ts") },
  { name: "concurrency", load: () => import("./concurrency.ts") },
  { name: "review", load: () => import("./review-parallel.ts") },
  { name: "review-block", load: () => import("./review-block.ts") },
  { name: "surface", load: () => import("./tool-surface.ts") },
  { name: "stream", load: () => import("./stream-parse.ts") },
  { name: "ask", load: () => import("./ask-overhead.ts") },
  { name: "dashboard", load: () => import("./dashboard.ts") },
  { name: "imports", load: () => import("./import-cost.ts"), optIn: true },
];

function selected(): Bench[] {
  const only = process.env.BENCH_ONLY?.split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (only?.length) return BENCHES.filter((b) => only.includes(b.name));
  return BENCHES.filter((b) => !b.optIn || (b.name === "imports" && process.env.BENCH_IMPORTS === "1"));
}

export function machine(): string {
  const cpu = /^model name\s*:\s*(.+)$/m.exec(safeRead("/proc/cpuinfo"))?.[1] ?? "unknown CPU";
  const uname = Bun.spawnSync(["uname", "-srvm"]).stdout.toString().trim();
  const git = Bun.spawnSync(["git", "--version"]).stdout.toString().trim();
  const node = Bun.which("node") ? Bun.spawnSync(["node", "--version"]).stdout.toString().trim() : "absent";
  return [
    `- machine: ${uname}`,
    `- CPU: ${cpu}, ${cpus().length} cores`,
    `- bun ${Bun.version}, node ${node}, ${git}`,
    `- date: ${new Date().toISOString()}`,
  ].join("\n");
}

function safeRead(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

async function main(): Promise<number> {
  const started = performance.now();
  const rows: Row[] = [];
  const failed: string[] = [];
  for (const bench of selected()) {
    try {
      rows.push(...(await (await bench.load()).run()));
    } catch (error) {
      // One broken benchmark must not hide the others' numbers.
      failed.push(`${bench.name}: ${error instanceof Error ? error.message : String(error)}`);
      process.stderr.write(`\n!! ${bench.name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    }
  }
  const env = ["BENCH_N", "BENCH_SMALL", "BENCH_ONLY", "BENCH_IMPORTS"].filter((k) => process.env[k]).map((k) => `${k}=${process.env[k]}`);
  process.stdout.write(
    `\n${machine()}\n- command: ${[...env, "npm run bench"].join(" ")}\n- wall time: ${((performance.now() - started) / 1000).toFixed(0)} s\n\n${renderTable(rows)}\n`,
  );
  if (failed.length) process.stdout.write(`\nFAILED: ${failed.join("; ")}\n`);
  return failed.length ? 1 : 0;
}

if (import.meta.main) process.exit(await main());
