/**
 * ACP agents in `orchestrate check`: each enabled agent driven over the Agent Client Protocol is
 * started once for `initialize` only (runner/transports/acp-probe.ts) — which ACP version it
 * speaks, what it can do, how it says to sign in. Nothing is sent to a model.
 */
import { adapters } from "../backends/index.ts";
import type { Config } from "../config/types.ts";
import { acpHandshake, type AcpHandshake } from "../runner/transports/acp-probe.ts";
import type { ProbeProblem } from "./detect.ts";

export type AcpAgentReport = { id: string; backend: string } & AcpHandshake;

export async function acpReport(config: Config, env: Record<string, string | undefined>): Promise<AcpAgentReport[]> {
  const agents = Object.values(config.agents).filter((a) => a.transport === "acp" && a.enabled);
  // Two at a time: each is a full agent start (gemini re-launches itself, 3–7 s alone); all at
  // once on a small machine pushed the slower ones past their initialize deadline.
  const reports: AcpAgentReport[] = new Array(agents.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < agents.length; i = next++) {
      const a = agents[i] as (typeof agents)[number];
      reports[i] = { id: a.id, backend: a.backend, ...(await acpHandshake(a, adapters[a.backend], env, config.maxDepth)) };
    }
  };
  await Promise.all([worker(), worker()]);
  return reports;
}

export function acpProblems(reports: readonly AcpAgentReport[]): ProbeProblem[] {
  return reports.flatMap((r) =>
    r.ok
      ? []
      : [
          {
            problem: `${r.id} (ACP): ${r.problem}`,
            hint: r.problem.includes("within")
              ? "it started but was slow to answer: run `orchestrate check` again on a quieter machine, or start its command by hand to see what it waits for"
              : "check the agent's command: it must start the agent in its ACP mode (e.g. gemini --acp, opencode acp, copilot --acp, claude-agent-acp, codex-acp)",
            blocks: true,
          },
        ],
  );
}

export function formatAcpAgent(r: AcpAgentReport): string {
  if (!r.ok) return `  ${r.id}: ✗ ${r.problem}`;
  const who = [r.agent, r.version].filter(Boolean).join(" ");
  const auth = r.login ? `sign in: ${r.login}` : r.authMethods.length ? `auth: ${r.authMethods.join(", ")}` : "no auth methods";
  return `  ${r.id}: ${r.command} · ACP ${r.protocolVersion}${who ? ` · ${who}` : ""} · ${r.capabilities.join(", ") || "no optional capabilities"} · ${auth}`;
}
