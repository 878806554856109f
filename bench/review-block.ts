/**
 * A review plan over large material must not stall the server (issue 21 item 5): planning reads the
 * material, locates credential-shaped text and stores a redacted copy, and every other request —
 * a ping included — waits while that runs on the one event loop. This pings every few ms while one
 * `review` call plans SIZE characters, over one server process and one MCP session, and reports the
 * slowest ping against pings on an idle server.
 *
 *   BENCH_REVIEW_CHARS=<n>   material size (default 2,000,000, the review limit)
 */
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
    return [
      {
        benchmark: `slowest ping during a ${SIZE}-character review plan`,
        value: ms(worst),
        reference: ms(median(idle)),
        ratio: ratio(worst, median(idle)),
        target: `≤ ${TARGET_MS} ms`,
        pass: worst <= TARGET_MS,
        note: `plan took ${ms(planMs)}; ${busy.length} pings while it ran (median ${ms(median(busy))}); reference: median of 200 idle pings`,
      },
    ];
  } finally {
    await session.close().catch(() => undefined);
    box.cleanup();
  }
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
