/**
 * A demo world whose store holds real history: routed runs (served, fell back, failed), consulted
 * turns (verified and a model mismatch) and a background job, all made by `orchestrate run`,
 * `orchestrate consult` and a real MCP client through the bundled fakes — then a dashboard process
 * over it, its URL read from its stdout.
 */
import { connect } from "../../fakes/lib/mcp-client.ts";
import { DEMO_CONFIG, demoSandbox } from "../../fakes/lib/demo-world.ts";
import type { Sandbox } from "../../fakes/lib/sandbox.ts";
import { BUN, MAIN, orchestrate } from "../setup/helpers.ts";

export interface Filled {
  box: Sandbox;
  /** Exit codes of the shell calls, in order (the runs the pages must show). */
  codes: number[];
}

export async function filledWorld(): Promise<Filled> {
  const box = demoSandbox();
  box.writeConfig(`${DEMO_CONFIG}consult:\n  review:\n    reviewers: [codex-main]\n`);
  const calls: [string[], Record<string, string>][] = [
    [["run", "--tier", "light", "--cwd", box.repo, "Add a CONTRIBUTING.md stub"], {}],
    [["run", "--tier", "heavy", "--cwd", box.repo, "Refactor the parser for speed"], {}],
    [["run", "--tier", "standard", "--cwd", box.repo, "Fix the flaky test"], { FAKE_CODEX_SCENARIO: "crash" }],
    [["consult", "--capability", "review", "Is a trie or a hash map better for prefix lookups?"], {}],
    [["consult", "--capability", "review", "Second look at the cache eviction?"], { FAKE_CODEX_SCENARIO: "wrong-model" }],
  ];
  const codes: number[] = [];
  for (const [args, env] of calls) codes.push((await orchestrate(args, { ...box.env, ...env })).code);
  await overMcp(box);
  return { box, codes };
}

/** Through a real MCP client: one background route (the jobs page), and one review planned, approved by its token and run. */
async function overMcp(box: Sandbox): Promise<void> {
  const session = await connect(box.env, { clientName: "orchestrate-tests" });
  try {
    const planned = await session.client.callTool({ name: "review", arguments: { goal: "Find bugs in the cache", mode: "standard", material: [{ text: "export const cache = new Map();\nexport function put(k, v) { cache.set(k, v); }\n", label: "cache.ts" }] } });
    const plan = planned.structuredContent as { review_id?: string; token?: string } | undefined;
    if (plan?.review_id && plan.token) await session.client.callTool({ name: "review_run", arguments: { review_id: plan.review_id, token: plan.token } });
    const reply = await session.client.callTool({ name: "route", arguments: { prompt: "Write the changelog entry", cwd: box.repo, tier: "light", background: true } });
    const job = (reply.structuredContent as { job?: { id?: string } } | undefined)?.job?.id;
    if (job) await session.client.callTool({ name: "job_wait", arguments: { id: job, waitSec: 30 } });
  } finally {
    await session.close();
  }
}

export interface DashboardProcess {
  url: string;
  origin: string;
  port: number;
  token: string;
  stderr: () => string;
  stop(): Promise<void>;
}

/** `orchestrate dashboard --port 0 …` as its own process; resolves once it printed its URL. */
export async function startDashboardProcess(env: Record<string, string>, extra: string[] = []): Promise<DashboardProcess> {
  const proc = Bun.spawn([BUN, MAIN, "dashboard", "--port", "0", ...extra], { env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  let err = "";
  void (async () => {
    for await (const chunk of proc.stderr) err += new TextDecoder().decode(chunk);
  })();
  const reader = proc.stdout.getReader();
  let out = "";
  while (!out.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`dashboard exited before printing its URL: ${err}`);
    out += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  const url = out.split("\n")[0]?.trim() ?? "";
  const parsed = new URL(url);
  return {
    url,
    origin: parsed.origin,
    port: Number(parsed.port),
    token: parsed.searchParams.get("token") ?? "",
    stderr: () => err,
    stop: async () => {
      proc.kill("SIGTERM");
      await proc.exited;
    },
  };
}
