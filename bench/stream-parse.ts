/**
 * Stream parsing: a 50 MB codex-style `exec --json` event stream (generated once into bench/.work)
 * fed through src/process/spawn.ts `runProcess` (`cat <file>` as the child) into the codex adapter's
 * parse, measured in a fresh child process each time so the extra RSS is the run's own. Three modes,
 * interleaved:
 *
 * - lines:   runProcess with a no-op onLine — the pipe + line-splitting floor (the reference);
 * - parse:   + codexAdapter.parse on every line, events dropped;
 * - attempt: + events folded as they arrive and a bounded log kept, as runner/attempt.ts does (the target).
 *
 * Extra RSS = the child's peak VmHWM during the run (reset through /proc/self/clear_refs just before)
 * minus its VmRSS right before, after a GC.
 */
import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BUN, interleave, iterations, median, mib, ratio, say, section, WORK, type Row } from "./helpers.ts";

const STREAM_BYTES = 50 * 1024 * 1024;
const TARGET_EXTRA = 32 * 1024 * 1024;
type Mode = "lines" | "parse" | "attempt";

interface ChildReport {
  ms: number;
  baseRss: number;
  peakRss: number;
  /** JS heap in use after the run and a full GC, minus before, with the kept events still referenced: what stays live. */
  liveHeap: number;
  lines: number;
  events: number;
}

export async function run(): Promise<Row[]> {
  section("stream parsing: 50 MB codex JSONL through runProcess(cat) + codex parse");
  const file = ensureStream();
  const mb = statSync(file).size / 1048576;
  const n = iterations(3);
  const samples = await interleave({ lines: () => child(file, "lines"), parse: () => child(file, "parse"), attempt: () => child(file, "attempt") }, n, 1);
  const mbps = (m: Mode): number => mb / (median(samples[m].map((r) => r.ms)) / 1000);
  const extra = (m: Mode): number => median(samples[m].map((r) => r.peakRss - r.baseRss));
  const live = (m: Mode): number => median(samples[m].map((r) => r.liveHeap));
  for (const m of ["lines", "parse", "attempt"] as const) {
    const last = samples[m].at(-1);
    say(
      `${m.padEnd(8)} ${mbps(m).toFixed(0)} MB/s  extra RSS peak ${mib(extra(m))}, live JS heap after GC ${mib(live(m))}  (${last?.lines} lines, ${last?.events} events kept, n=${n})`,
    );
  }
  return [
    {
      benchmark: "stream parse throughput (parse, events dropped)",
      value: `${mbps("parse").toFixed(0)} MB/s`,
      reference: `lines only ${mbps("lines").toFixed(0)} MB/s`,
      ratio: ratio(mbps("parse"), mbps("lines")),
      target: "—",
    },
    {
      benchmark: "stream parse throughput (as runAttempt: keep + fold)",
      value: `${mbps("attempt").toFixed(0)} MB/s`,
      reference: `lines only ${mbps("lines").toFixed(0)} MB/s`,
      ratio: ratio(mbps("attempt"), mbps("lines")),
      target: "—",
    },
    {
      benchmark: "stream parse extra RSS (parse, events dropped)",
      value: mib(extra("parse")),
      reference: `lines only ${mib(extra("lines"))}`,
      ratio: "—",
      target: "≤ 32 MiB",
      pass: extra("parse") <= TARGET_EXTRA,
    },
    {
      benchmark: "stream parse extra RSS (as runAttempt: keep + fold)",
      value: mib(extra("attempt")),
      reference: `lines only ${mib(extra("lines"))}`,
      ratio: "—",
      target: "≤ 32 MiB",
      pass: extra("attempt") <= TARGET_EXTRA,
      note: `${mb.toFixed(0)} MB stream, ${samples.attempt.at(-1)?.events} events kept; live JS heap after a full GC +${mib(live("attempt"))} (lines only +${mib(live("lines"))}, parse +${mib(live("parse"))}): the rest of the peak is garbage and allocator slack`,
    },
  ];
}

async function child(file: string, mode: Mode): Promise<ChildReport> {
  const proc = Bun.spawn([BUN, import.meta.path, "--child", file, mode], {
    stdout: "pipe",
    stderr: "inherit",
    stdin: "ignore",
    env: { ...process.env, ORCHESTRATE_LOG_LEVEL: "1" },
  });
  const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  if (code !== 0) throw new Error(`stream child (${mode}) exited ${code}`);
  return JSON.parse(out) as ChildReport;
}

/** One turn of a busy codex run: reasoning, a command with its output, a file change, a message. */
function turnLines(i: number): string[] {
  const id = (k: string): string => `item_${i}_${k}`;
  const command = `bash -lc 'rg --files src | head -n ${i % 97}'`;
  const output = `src/module_${i}.ts\n`.repeat(40 + (i % 200));
  return [
    {
      type: "item.completed",
      item: { id: id("r"), type: "reasoning", text: `**Planning step ${i}**\n\n${"Considering the next change to the module. ".repeat(6)}` },
    },
    { type: "item.started", item: { id: id("c"), type: "command_execution", command, aggregated_output: "", exit_code: null, status: "in_progress" } },
    { type: "item.completed", item: { id: id("c"), type: "command_execution", command, aggregated_output: output, exit_code: 0, status: "completed" } },
    { type: "item.started", item: { id: id("f"), type: "file_change", changes: [{ path: `src/module_${i}.ts`, kind: "update" }], status: "in_progress" } },
    { type: "item.completed", item: { id: id("f"), type: "file_change", changes: [{ path: `src/module_${i}.ts`, kind: "update" }], status: "completed" } },
    { type: "item.completed", item: { id: id("m"), type: "agent_message", text: `Updated module ${i}; ${"the tests pass and the types check. ".repeat(3)}` } },
  ].map((o) => JSON.stringify(o));
}

function ensureStream(): string {
  const file = join(WORK, "codex-50mb.jsonl");
  if (existsSync(file) && statSync(file).size >= STREAM_BYTES) return file;
  mkdirSync(WORK, { recursive: true });
  const parts = [JSON.stringify({ type: "thread.started", thread_id: "0199a213-81c0-7800-8aa1-bbab2a035a53" }), JSON.stringify({ type: "turn.started" })];
  let size = 0;
  for (let i = 0; size < STREAM_BYTES; i++) {
    for (const line of turnLines(i)) {
      parts.push(line);
      size += line.length + 1;
    }
  }
  parts.push(
    JSON.stringify({
      type: "turn.completed",
      usage: { input_tokens: 912_345, cached_input_tokens: 800_000, output_tokens: 54_321, reasoning_output_tokens: 12_000 },
    }),
  );
  writeFileSync(file, `${parts.join("\n")}\n`);
  return file;
}

// ---- child side -------------------------------------------------------------------------------

async function childMain(file: string, mode: Mode): Promise<void> {
  const { runProcess } = await import("../src/process/spawn.ts");
  const { codexAdapter } = await import("../src/backends/codex/index.ts");
  const { EventFolder } = await import("../src/backends/fold.ts");
  const { EventLog } = await import("../src/runner/event-log.ts");
  const { rssOf } = await import("./helpers.ts");
  const folder = new EventFolder();
  const log = new EventLog();
  let dropped = 0;
  const onLine = {
    lines: (): void => undefined,
    parse: (line: string): void => void (dropped += codexAdapter.parse(line).length),
    attempt: (line: string): void => {
      for (const event of codexAdapter.parse(line)) {
        folder.push(event);
        log.push(event);
      }
    },
  }[mode];
  Bun.gc(true);
  const baseRss = rssOf(process.pid);
  const baseHeap = process.memoryUsage().heapUsed;
  // Resets VmHWM to the current RSS, so the peak read afterwards is this run's.
  writeFileSync("/proc/self/clear_refs", "5");
  const t0 = performance.now();
  const res = await runProcess({ command: "/bin/cat", args: [file], cwd: WORK, env: { PATH: "/usr/bin:/bin" }, timeoutMs: 120_000, onLine });
  if (mode === "attempt") folder.result();
  const elapsed = performance.now() - t0;
  const peakRss = rssOf(process.pid, "VmHWM");
  Bun.gc(true);
  const liveHeap = process.memoryUsage().heapUsed - baseHeap;
  if (res.endReason !== "exit" || res.exitCode !== 0) throw new Error(`cat ended ${res.endReason} ${res.exitCode}`);
  const report: ChildReport = { ms: elapsed, baseRss, peakRss, liveHeap, lines: res.lines, events: mode === "attempt" ? log.events.length : dropped };
  process.stdout.write(JSON.stringify(report));
}

if (import.meta.main) {
  const [flag, file, mode] = process.argv.slice(2);
  if (flag === "--child" && file && mode) await childMain(file, mode as Mode);
  else console.log(await run());
}
