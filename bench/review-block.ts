/**
 * A review plan over large material must not stall the server (issue 21 item 5): planning reads the
 * material, locates credential-shaped text and stores a redacted copy, and every other request —
 * a ping included — waits while that runs on the one event loop. This pings every few ms while one
 * `review` call plans SIZE characters, over one server process and one MCP session, and reports the
 * slowest ping against pings on an idle server. A ping sent while the 2 MB request is still in the
 * pipe waits behind it (one stdio stream: head-of-line, not the loop), so the target row measures
 * the loop itself: the same plan in this process, with a 1 ms timer noting the longest stall.
 *
 *   BENCH_REVIEW_CHARS=<n>   material size (default 2,000,000, the review limit)
 */
import { connectInProcess } from "../fakes/lib/in-process.ts";
import { connect, type McpSession } from "../fakes/lib/mcp-client.ts";
import { makeSandbox } from "../fakes/lib/sandbox.ts";
import { median, ms, ratio, say, section, type Row } from "./helpers.ts";

const SIZE = Number(process.env.BENCH_REVIEW_CHARS ?? 2_000_000);
const TARGET_MS = 50;

/** Source-like lines with a credential of a common shape every tenth line: what a diff with a leaked .env looks like. */
export function material(chars: number): string {
  const lines = [
    "export function total(items: Item[]): number { return items.reduce((n, i) => n + i.price, 0); }",
    "  const url = 'https://user:hunter2hunter2@db.internal.example/app';",
    "  // TODO: keep the cache warm between requests, see the notes in the design document",
    "  headers: { Authorization: 'Bearer ghp_0123456789abcdefghijklmnopqrstuvwxyzAB' },",
  ];
  const out: string[] = [];
  let n = 0;
  for (let i = 0; n < chars; i++) {
    const line = lines[i % 10 === 3 ? 3 : i % 10 === 7 ? 1 : i % 2 === 0 ? 0 : 2] as string;
    out.push(line);
    n += line.length + 1;
  }
  return out.join("\n").slice(0, chars);
}

export async function run(): Promise<Row[]> {
  section(`review plan of ${SIZE} characters: the slowest ping meanwhile vs an idle server`);
  const box = makeSandbox({ ORCHESTRATE_HOST_RUNTIME: "gemini" });
  box.writeConfig(["agents:", "  r1: { backend: claude, model: claude-opus-4-6 }", "consult:", "  review:", "    deep_reviewers: [r1]", ""].join("\n"));
  const session = await connect(box.env);
  try {
    await session.client.callTool({ name: "review", arguments: { goal: "warm up", mode: "deep", reviewers: ["r1"], material: [{ text: "x" }] } });
    const idle = await pings(session, 200);
    const text = material(SIZE);
    let done = false;
    const started = performance.now();
    const plan = session.client
      .callTool({ name: "review", arguments: { goal: "Bench: is this safe?", mode: "deep", reviewers: ["r1"], material: [{ text }] } }, undefined, {
        timeout: 600_000,
      })
      .finally(() => {
        done = true;
      });
    const busy: number[] = [];
    while (!done) busy.push(...(await pings(session, 1)));
    const reply = await plan;
    const planMs = performance.now() - started;
    if (reply.isError) throw new Error(`review failed: ${JSON.stringify(reply.structuredContent)}`);
    const worst = Math.max(...busy);
    say(`plan took ${ms(planMs)}; ${busy.length} pings meanwhile, slowest ${ms(worst)}, median ${ms(median(busy))}; idle median ${ms(median(idle))}`);
    const stall = await longestStall(box.env, text);
    return [
      {
        benchmark: `longest event-loop stall during a ${SIZE}-character review plan`,
        value: ms(stall.worst),
        reference: ms(stall.idle),
        ratio: ratio(stall.worst, stall.idle),
        target: `≤ ${TARGET_MS} ms`,
        pass: stall.worst <= TARGET_MS,
        note: `the server in this process (client included, so an upper bound); a 1 ms timer; reference: its longest stall over the same time idle`,
      },
      {
        benchmark: `slowest ping during a ${SIZE}-character review plan (stdio)`,
        value: ms(worst),
        reference: ms(median(idle)),
        ratio: ratio(worst, median(idle)),
        target: "—",
        note: `plan took ${ms(planMs)}; ${busy.length} pings while it ran (median ${ms(median(busy))}); reference: median of 200 idle pings`,
      },
    ];
  } finally {
    await session.close().catch(() => undefined);
    box.cleanup();
  }
}

/** The longest gap between ticks of a 1 ms timer while the plan runs in this process, and while idle for as long. */
async function longestStall(env: Record<string, string>, text: string): Promise<{ worst: number; idle: number }> {
  const session = await connectInProcess(env);
  try {
    await session.client.callTool({ name: "review", arguments: { goal: "warm up", mode: "deep", reviewers: ["r1"], material: [{ text: "x" }] } });
    const watch = stallWatch();
    const started = performance.now();
    await session.client.callTool(
      { name: "review", arguments: { goal: "Bench: is this safe?", mode: "deep", reviewers: ["r1"], material: [{ text }] } },
      undefined,
      {
        timeout: 600_000,
      },
    );
    const worst = watch.stop();
    const idleWatch = stallWatch();
    await Bun.sleep(performance.now() - started);
    return { worst, idle: idleWatch.stop() };
  } finally {
    await session.close();
  }
}

function stallWatch(): { stop(): number } {
  let last = performance.now();
  let worst = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last);
    last = now;
  }, 1);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(worst, performance.now() - last);
    },
  };
}

async function pings(session: McpSession, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await session.client.ping({ timeout: 600_000 });
    out.push(performance.now() - t);
  }
  return out;
}

if (import.meta.main) {
  const rows = await run();
  process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
}
