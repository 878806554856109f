/**
 * Reviews in parallel (issue 13): five reviewers whose fakes each take 2 s, in one deep review,
 * against the slowest of them reviewing alone — through one server process and one MCP session, the
 * way a client runs them. The target is ≤ 1.15×: reviewers that queued behind one another would take
 * five times as long.
 */
import { connect, type McpSession } from "../fakes/lib/mcp-client.ts";
import { makeSandbox } from "../fakes/lib/sandbox.ts";
import { iterations, median, ms, ratio, say, section, type Row } from "./helpers.ts";

const DELAY_MS = 2000;
/** Five execution identities on one runtime (the claude fake sleeps FAKE_DELAY_MS before it answers). */
const MODELS = ["claude-opus-4-6", "claude-opus-4-5", "claude-sonnet-4-6", "claude-sonnet-4-5", "claude-haiku-4-5"];
const IDS = MODELS.map((_, i) => `r${i + 1}`);

function config(): string {
  const agents = MODELS.map((model, i) => `  ${IDS[i]}: { backend: claude, model: ${model}, env: { FAKE_DELAY_MS: "${DELAY_MS}" } }`);
  return ["agents:", ...agents, "consult:", "  review:", `    deep_reviewers: [${IDS.join(", ")}]`, ""].join("\n");
}

export async function run(): Promise<Row[]> {
  section(`review: ${IDS.length} reviewers of ${DELAY_MS} ms each in one review vs the slowest alone`);
  const box = makeSandbox({ ORCHESTRATE_HOST_RUNTIME: "gemini" });
  box.writeConfig(config());
  const session = await connect(box.env);
  try {
    await timedReview(session, IDS);
    const n = iterations(3);
    const alone: number[] = [];
    const five: number[] = [];
    for (let round = 0; round < n; round++) {
      // The slowest alone: each reviewer by itself, the longest of them.
      const each = [];
      for (const id of IDS) each.push(await timedReview(session, [id]));
      alone.push(Math.max(...each));
      five.push(await timedReview(session, IDS));
      say(`round ${round + 1}: five together ${ms(five.at(-1) ?? 0)}, slowest alone ${ms(alone.at(-1) ?? 0)}`);
    }
    const together = median(five);
    const slowest = median(alone);
    return [
      {
        benchmark: `${IDS.length} reviewers in parallel vs the slowest alone (fakes take ${DELAY_MS} ms)`,
        value: ms(together),
        reference: ms(slowest),
        ratio: ratio(together, slowest),
        target: "≤ 1.15×",
        pass: together <= 1.15 * slowest,
        note: `one server, one MCP session; review_run from call to reply (token spend, ${IDS.length} answer-only runs, findings stored); medians of ${n}`,
      },
    ];
  } finally {
    await session.close().catch(() => undefined);
    box.cleanup();
  }
}

/** Plans a deep review with these reviewers and times review_run alone (planning sends nothing). */
async function timedReview(session: McpSession, reviewers: string[]): Promise<number> {
  const plan = await call(session, "review", { goal: "Bench: is this safe?", mode: "deep", reviewers, material: [{ text: "const cache = new Map();\n" }] });
  const started = performance.now();
  const done = await call(session, "review_run", { review_id: plan.review_id, token: plan.token, host_findings: [{ severity: "minor", claim: "bench" }] });
  const elapsed = performance.now() - started;
  if (done.status !== "awaiting_synthesis") throw new Error(`review ended ${String(done.status)}: ${JSON.stringify(done.error ?? done.reviewers)}`);
  return elapsed;
}

async function call(session: McpSession, name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const reply = await session.client.callTool({ name, arguments: args });
  const data = reply.structuredContent;
  if (!data || typeof data !== "object") throw new Error(`${name}: no structured reply`);
  return Object.fromEntries(Object.entries(data));
}

if (import.meta.main) {
  const rows = await run();
  process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
}
