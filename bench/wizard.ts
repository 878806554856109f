/**
 * The wizard's listing: `orchestrate init` under a pseudo-terminal (util-linux `script`), from spawn
 * to the first line (every found CLI gets one at once, rewritten in place as it answers) and to the
 * final line of the last CLI, with whatever CLIs are on PATH (issue 11: six real CLIs within 5 s on
 * 2 cores; issue 22: the first line within 1 s). Cold runs start with no probe cache in the state dir; warm runs reuse
 * the cache the previous run left. Stops the wizard once it starts reading the model lists (the
 * flag checks and the cache are done by then); writes no config.
 *   PATH=/tmp/realcli/node_modules/.bin:/tmp/realpi/node_modules/.bin:$PATH npx bun bench/wizard.ts [runs=5]
 * Not part of bench/run.ts: it needs the real CLIs, which the suite never does.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const REPO = join(import.meta.dir, "..");
const RUNS = Number(process.argv[2] ?? 5);
const home = mkdtempSync(join(tmpdir(), "wizard-bench-"));
const state = join(home, "state");

interface Sample {
  totalMs: number;
  firstMs: number;
  /** Every flag check done (the wizard moves on to the model lists). */
  flagsMs: number;
  lines: { at: number; text: string }[];
}

async function once(): Promise<Sample> {
  const started = performance.now();
  const command = `${join(REPO, "node_modules", ".bin", "bun")} ${join(REPO, "src", "main.ts")} init ${join(home, "config.yaml")}`;
  const proc = Bun.spawn(["script", "-qfec", command, "/dev/null"], {
    env: { ...process.env, HOME: home, XDG_STATE_HOME: state, TERM: "xterm-256color", ORCHESTRATE_CONFIG: join(home, "config.yaml") },
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
  });
  const lines: Sample["lines"] = [];
  let buffered = "";
  let want = Infinity;
  let listedMs = NaN;
  let firstMs = NaN;
  let flagsMs = NaN;
  let done = false;
  const decoder = new TextDecoder();
  for await (const chunk of proc.stdout) {
    buffered += decoder.decode(chunk);
    // A line rewritten in place starts with \r after the cursor moves.
    const parts = buffered.split(/\r\n|\r|\n/);
    buffered = parts.pop() ?? "";
    for (const raw of parts) {
      const text = raw.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "").trim();
      const found = /found ([\w, ]+?)(?:;| —|$)/.exec(text);
      if (found?.[1] && want === Infinity) want = found[1].split(", ").length;
      if (/^\s*\w+\s+\/\S+/.test(text) && Number.isNaN(firstMs)) firstMs = performance.now() - started;
      // A CLI is listed once its line shows its version and sign-in (its flag check may still run).
      if (/^\s*\w+\s+\/\S+/.test(text) && /signed in|sign-in unknown/.test(text) && !lines.some((l) => l.text.split(/\s+/)[0] === text.split(/\s+/)[0]))
        lines.push({ at: performance.now() - started, text });
      if (lines.length >= want && Number.isNaN(listedMs)) listedMs = performance.now() - started;
      // The flag checks end (and the cache is written) before the model lists are read.
      if (text.startsWith("Reading the model lists")) {
        done = true;
        flagsMs = performance.now() - started;
      }
    }
    if (done) break;
  }
  const totalMs = listedMs;
  proc.kill("SIGKILL");
  await proc.exited;
  return { totalMs, firstMs, flagsMs, lines };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

async function series(label: string, cold: boolean): Promise<void> {
  const totals: number[] = [];
  const firsts: number[] = [];
  const flags: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    if (cold) rmSync(state, { recursive: true, force: true });
    const s = await once();
    totals.push(s.totalMs);
    firsts.push(s.firstMs);
    flags.push(s.flagsMs);
    console.log(
      `${label} run ${i + 1}: first line ${(s.firstMs / 1000).toFixed(2)} s, flags done ${(s.flagsMs / 1000).toFixed(2)} s, ${(s.totalMs / 1000).toFixed(2)} s to the last CLI line · ${s.lines.map((l) => `${l.text.split(/\s+/)[0]} ${(l.at / 1000).toFixed(2)}`).join(", ")}`,
    );
  }
  console.log(
    `${label}: first line median ${(median(firsts) / 1000).toFixed(2)} s; flags done median ${(median(flags) / 1000).toFixed(2)} s; last CLI line median ${(median(totals) / 1000).toFixed(2)} s over ${RUNS} runs (min ${(Math.min(...totals) / 1000).toFixed(2)}, max ${(Math.max(...totals) / 1000).toFixed(2)})`,
  );
}

try {
  await once(); // the CLIs' own first-start work in this home (opencode's database, …), not counted
  await series("cold", true);
  await series("warm", false);
} finally {
  rmSync(home, { recursive: true, force: true });
}
