import { defineCommand } from "citty";
import { configArg } from "./config-arg.ts";
import type { SmokeResult } from "../services/smoke/index.ts";
import { EXIT, exitWith, failureLines, endCommand } from "./exit-codes.ts";
import { wholeNumber } from "./numbers.ts";
import { printJson, stdout, stderr } from "../safety/egress.ts";

/**
 * `orchestrate smoke [--agent a,b]`: a live check against the real config and the signed-in CLIs —
 * one tiny prompt per configured agent — reporting per agent: reachable, model verified, latency,
 * tokens, cost. It spends real (small) capacity, so it is never part of CI. Report → stdout,
 * progress → stderr; exit 0 when every agent asked answered with its configured model.
 */
export const smokeCommand = defineCommand({
  meta: {
    name: "smoke",
    description:
      "Live check: one tiny prompt to each configured agent (real CLIs, real accounts, small cost). Reports reachable, model verified, latency, tokens, cost.",
  },
  args: {
    agent: { type: "string", description: "Comma-separated agent ids (default: every configured agent)" },
    timeout: { type: "string", description: "Seconds per agent (default 120)" },
    json: { type: "boolean", description: "Print the results as JSON" },
    ...configArg,
  },
  async run({ args }) {
    const timeoutSec = args.timeout === undefined ? 120 : wholeNumber(args.timeout, 5, 3600);
    if (timeoutSec === undefined) return exitWith("--timeout takes whole seconds between 5 and 3600", EXIT.usage);
    const { createRuntime } = await import("../services/shared/runtime.ts");
    const rt = await createRuntime(process.env, args.config);
    if (!rt.ok) return exitWith(failureLines(rt.error), EXIT.usage);
    const { smokeAgents, smokePassed, smokeTargets } = await import("../services/smoke/index.ts");
    const only = args.agent
      ?.split(",")
      .map((a) => a.trim())
      .filter(Boolean);
    const targets = smokeTargets(rt.value, only);
    if (targets.unknown.length) return exitWith(`No agent named ${targets.unknown.join(", ")} in the config.`, EXIT.usage);
    if (targets.agents.length === 0) return exitWith("No agents are configured. Run `orchestrate init` in a terminal.", EXIT.unavailable);
    stderr.write(`Sending one tiny prompt to ${targets.agents.length} agent(s) through their real CLIs (this uses a little real capacity)…\n`);
    const { installShutdownHandlers, killAllLive } = await import("../process/live.ts");
    const abort = new AbortController();
    installShutdownHandlers({ onShutdown: () => abort.abort("shutdown") });
    const results = await smokeAgents(rt.value, {
      ...(only ? { agents: only } : {}),
      timeoutSec,
      signal: abort.signal,
      onProgress: (m) => stderr.write(`… ${m}\n`),
    });
    await killAllLive("shutdown");
    rt.value.store.close();
    if (args.json) printJson(results, 2);
    else stdout.write(formatSmoke(results));
    endCommand(smokePassed(results) ? EXIT.ok : EXIT.failed);
  },
});

const cost = (r: SmokeResult) => (r.usage.costUsd === undefined ? "—" : `$${r.usage.costUsd.toFixed(4)}${r.costEstimated ? " (estimated)" : ""}`);
const toks = (r: SmokeResult) =>
  r.usage.inputTokens === undefined && r.usage.outputTokens === undefined ? "—" : `${r.usage.inputTokens ?? "?"} in / ${r.usage.outputTokens ?? "?"} out`;

export function formatSmoke(results: SmokeResult[]): string {
  const head = ["agent", "backend · model", "reachable", "model", "latency", "tokens", "cost"];
  const rows = results.map((r) => [
    r.agent,
    `${r.backend} · ${r.model ?? "CLI default"}`,
    r.skipped ? "skipped" : r.reachable ? "yes" : "NO",
    r.skipped ? "—" : r.verification === "mismatch" ? `MISMATCH (${r.modelsReported.join(", ")})` : r.verification,
    r.skipped ? "—" : `${(r.latencyMs / 1000).toFixed(1)} s`,
    toks(r),
    cost(r),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join("  ")
      .trimEnd();
  const notes = results.flatMap((r) =>
    r.skipped ? [`${r.agent}: ${r.skipped}`] : r.error ? [`${r.agent}: [${r.error.code}] ${r.error.message}${r.error.hint ? ` — ${r.error.hint}` : ""}`] : [],
  );
  return `${[line(head), ...rows.map(line)].join("\n")}\n${notes.length ? `\n${notes.join("\n")}\n` : ""}`;
}
