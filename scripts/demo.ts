/**
 * `npm run demo`: a real MCP session over stdio against the orchestrate server, configured with the
 * bundled fake CLIs, so it works with no vendor CLI installed. Shows list_tiers, a dry run, a routed
 * call with its model check, a fallback with its trace and cross-provider notice, a background job
 * awaited with job_wait, a limit refused because the CLI could never enforce it, and a second
 * opinion from pi (one of eight backends, each in its own src/backends/ folder), a review planned
 * (nothing sent) and run with its one-time token, an `ask` over HTTP to a loopback provider, and a
 * workflow whose implement step runs in an isolated worktree (scripts/demo-workflow.ts).
 */
import { makeSandbox } from "../fakes/lib/sandbox.ts";
import { DEMO_AGENTS, DEMO_ENV, DEMO_ROUTING } from "../fakes/lib/demo-world.ts";
import { startFakeProvider, type FakeProvider } from "../fakes/lib/fake-provider.ts";
import { connect, textOf, type ToolReply } from "../fakes/lib/mcp-client.ts";
import { demoWorkflow, WORKFLOW_AGENT, WORKFLOW_BLOCK } from "./demo-workflow.ts";

const config = (provider: FakeProvider) => `# demo config: every id below is served by a fake CLI from fakes/ (ask: by a loopback fake provider)
${DEMO_AGENTS}  pi-reviewer:
    backend: pi
    provider: anthropic           # pi serves many providers: its agents say which
    model: claude-sonnet-4-5
    scores: { review: 95 }
${WORKFLOW_AGENT}${DEMO_ROUTING}consult:
  review:
    reviewers: [pi-reviewer]
${WORKFLOW_BLOCK}ask:
  capabilities:
    quick:
      description: short factual answers from a small model over its HTTP API
      deployments: [{ model: openai/quick-model, baseUrl: "${provider.openaiBase}" }]
`;

const out = (s: string) => process.stdout.write(`${s}\n`);
const bold = process.stdout.isTTY ? (s: string) => `\x1b[1m${s}\x1b[0m` : (s: string) => s;
const heading = (s: string) => out(`\n${bold(`== ${s}`)}`);

async function main(): Promise<void> {
  // claude answers like a rate-limited account, so the heavy call must fall back. The demo's client
  // plays Claude Code, so consult never asks claude (the host's own runtime is excluded).
  // codex writes its rate-limit windows into its session rollout; the fake's says 92 % of the 5-hour one.
  const box = makeSandbox({ ...DEMO_ENV, ANTHROPIC_API_KEY: "demo-not-a-real-key", FAKE_CODEX_QUOTA_USED: "92" });
  const provider = startFakeProvider();
  provider.script("quick-model", { kind: "ok", text: "A trie: prefix lookups walk one node per character.", chunks: 3 });
  box.writeConfig(config(provider));
  out(`sandbox: ${box.root} (fake HOME, config, SQLite store and a git repo at ${box.repo})`);
  const session = await connect(box.env, { clientName: "orchestrate-demo" });
  try {
    const tools = await session.client.listTools();
    heading("tools/list");
    out(tools.tools.map((t) => `  ${t.name} — ${t.description?.split(".")[0]}`).join("\n"));
    await show(session, "list_tiers", {});
    await show(session, "router_dry_run", { cwd: box.repo, tier: "heavy", prompt: "Refactor the parser for speed" });
    await show(session, "route", { prompt: "Add a CONTRIBUTING.md stub", cwd: box.repo, tier: "light" });
    await show(session, "route", { prompt: "Refactor the parser for speed", cwd: box.repo, tier: "heavy" });
    const started = await show(session, "route", { prompt: "Write the changelog entry", cwd: box.repo, tier: "standard", background: true });
    const job = (started.structuredContent?.job as { id?: string } | undefined)?.id;
    if (job) await show(session, "job_wait", { id: job, waitSec: 30 });
    // That run's rollout reported codex-main's quota: the tiers show it, and a tier with another entry would send that first.
    await show(session, "list_tiers", {});
    // codex counts no turns, so a turn limit could never stop it: refused before anything is sent.
    await show(session, "route", { prompt: "Tidy the imports", cwd: box.repo, tier: "standard", limits: { maxTurns: 5 } });
    await show(session, "consult", { prompt: "Is a trie or a hash map better for prefix lookups here?", capability: "review" });
    const plan = await show(session, "review", {
      goal: "Find bugs in the prefix index",
      mode: "standard",
      material: [{ label: "index.ts", text: "export function find(prefix: string) { return keys.filter((k) => k.startsWith(prefix)); }\n" }],
    });
    const planned = plan.structuredContent as { review_id?: string; token?: string } | undefined;
    if (planned?.review_id && planned.token) await show(session, "review_run", { review_id: planned.review_id, token: planned.token });
    await show(session, "ask", { capability: "quick", prompt: "Trie or hash map for prefix lookups? One line." });
    heading("workflow: research → plan → implement (isolated worktree) → apply → test → review, the demo as host");
    await demoWorkflow(session, box, out);
  } finally {
    await session.close();
    await provider.stop();
    box.cleanup();
  }
  out(
    "\nDone: a routed call (its model checked), a fallback after a fast clean failure (tree unchanged) with its trace, a background job, the quota codex reported, a typed refusal, a second opinion from another vendor's agent, a review behind a one-time token, a direct HTTP ask, and a workflow whose diff came back from an isolated worktree.",
  );
}

async function show(session: Awaited<ReturnType<typeof connect>>, name: string, args: Record<string, unknown>): Promise<ToolReply> {
  heading(`${name}(${JSON.stringify(args)})`);
  const reply = (await session.client.callTool({ name, arguments: args }, undefined, {
    onprogress: (p) => out(`  … ${p.message ?? p.progress}`),
  })) as ToolReply;
  out(textOf(reply).replace(/^/gm, "  "));
  if (reply.isError) out("  (isError: true)");
  return reply;
}

await main();
