/** Shared set-up for the review end-to-end tests: a sandbox with reviewers, a real MCP session, the store file. */
import { Database } from "bun:sqlite";
import { type Elicitor, type ClientSession, type ToolReply } from "../../fakes/lib/mcp-client.ts";
import { connectInProcess } from "../../fakes/lib/in-process.ts";
import { makeSandbox, type Recording, type Sandbox } from "../../fakes/lib/sandbox.ts";

export interface Reviewer {
  backend: string;
  model?: string;
  env?: Record<string, string>;
  maxWallSec?: number;
}

export interface ReviewWorld {
  box: Sandbox;
  session: ClientSession;
  close(): Promise<void>;
}

export function reviewConfig(agents: Record<string, Reviewer>, review: { reviewers?: string[]; deep_reviewers?: string[] } | undefined): string {
  const lines = ["agents:"];
  for (const [id, a] of Object.entries(agents)) {
    const env = a.env
      ? `, env: { ${Object.entries(a.env)
          .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
          .join(", ")} }`
      : "";
    const limits = a.maxWallSec ? `, limits: { maxWallSec: ${a.maxWallSec} }` : "";
    lines.push(`  ${id}: { backend: ${a.backend}${a.model ? `, model: ${JSON.stringify(a.model)}` : ""}${limits}${env} }`);
  }
  if (review) {
    lines.push("consult:", "  review:");
    if (review.reviewers) lines.push(`    reviewers: [${review.reviewers.join(", ")}]`);
    if (review.deep_reviewers) lines.push(`    deep_reviewers: [${review.deep_reviewers.join(", ")}]`);
  }
  return `${lines.join("\n")}\n`;
}

/** Three reviewers on three runtimes; the host is gemini, so none of them is excluded. */
export const THREE: Record<string, Reviewer> = {
  cl: { backend: "claude", model: "claude-opus-4-6" },
  oc: { backend: "opencode", model: "opencode/deepseek-v4" },
  cp: { backend: "copilot", model: "gpt-5.2" },
};

export async function openReviewWorld(config: string, opts: { env?: Record<string, string>; elicit?: Elicitor } = {}): Promise<ReviewWorld> {
  const box = makeSandbox({ ORCHESTRATE_HOST_RUNTIME: "gemini", ...opts.env });
  // An empty value removes the variable (the seed's own ORCHESTRATOR_HOST_RUNTIME instead of ours).
  for (const [key, value] of Object.entries(box.env)) if (value === "") delete box.env[key];
  box.writeConfig(config);
  const session = await connectInProcess(box.env, opts.elicit ? { elicit: opts.elicit } : {});
  return {
    box,
    session,
    close: async () => {
      await session.close().catch(() => undefined);
      box.cleanup();
    },
  };
}

export async function call(s: ClientSession, name: string, args: Record<string, unknown> = {}): Promise<ToolReply> {
  return (await s.client.callTool({ name, arguments: args })) as ToolReply;
}

export type Data = Record<string, unknown> & { ok: boolean; error?: { code: string; message: string } };
export const dataOf = (r: ToolReply) => r.structuredContent as Data;

export interface Plan {
  review_id: string;
  token: string;
}

export async function plan(s: ClientSession, args: Record<string, unknown>): Promise<Plan & Data> {
  const reply = dataOf(
    await call(s, "review", {
      goal: "Is this cache safe under concurrent writers?",
      mode: "standard",
      material: [{ text: "const cache = new Map();\n" }],
      ...args,
    }),
  );
  if (!reply.ok) throw new Error(`review failed: ${JSON.stringify(reply.error)}`);
  return reply as Plan & Data;
}

/** The reviewer CLIs' runs: the ones whose prompt is a review (probes and side channels carry none). */
export function reviewerRuns(box: Sandbox): Recording[] {
  return box.recordings().filter((r) => JSON.stringify(r).includes("ORCHESTRATE_REVIEW_ENVELOPE"));
}

/** A query on the world's store file, read-only. */
export function storeRows<T>(box: Sandbox, sql: string): T[] {
  const db = new Database(box.dbPath, { readonly: true });
  try {
    return db.query(sql).all() as T[];
  } finally {
    db.close();
  }
}

export interface ReviewerOut {
  id: string;
  status: string;
  findings: string[];
  reply?: string;
  error?: { code: string };
}
export interface FindingOut {
  id: string;
  source: string;
  reviewer: string | null;
  severity: string;
  claim: string | null;
  disposition: string;
}
export const reviewersOf = (d: Data) => (d.reviewers ?? []) as ReviewerOut[];
export const findingsOf = (d: Data) => (d.findings ?? []) as FindingOut[];

export function criticalReply(claim: string): string {
  return JSON.stringify({
    summary: "one critical",
    findings: [{ severity: "critical", location: "cache.ts:1", claim, evidence: "no lock" }],
    checked: ["cache.ts"],
    not_checked: [],
  });
}
