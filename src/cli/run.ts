import { defineCommand } from "citty";
import { configArg } from "./config-arg.ts";
import { errorText } from "../result.ts";
import { StatusLine } from "./status-line.ts";
import { resolve } from "node:path";
import { TIERS } from "../config/types.ts";
import { createRuntime } from "../services/shared/runtime.ts";
import { routeTask } from "../services/route/index.ts";
import { formatDryRun, formatRoute } from "../mcp/tools/core/format.ts";
import { dryRun, type DryRunRequest } from "../services/route/tiers.ts";
import type { Runtime } from "../services/shared/runtime.ts";
import type { Config } from "../config/types.ts";
import { didYouMean, shellHint, shellWords } from "./shell-hints.ts";
import { installShutdownHandlers, killAllLive } from "../process/live.ts";
import { EXIT, EXIT_HELP, exitCodeFor, exitWith, failureLines, endCommand } from "./exit-codes.ts";
import { wholeNumber } from "./numbers.ts";
import { readStdin } from "./stdin.ts";
import { personError, personTrace } from "./route-report.ts";
import { printJson, stdout, stderr } from "../safety/egress.ts";

/** `orchestrate run --tier T [--cwd D] "prompt"`: the same routing from a shell. Trace → stderr, answer → stdout. */
export const runCommand = defineCommand({
  meta: { name: "run", description: `Route one task from a shell: the trace goes to stderr, the answer to stdout. ${EXIT_HELP}` },
  args: {
    tier: { type: "string", required: true, description: "light | standard | heavy" },
    cwd: { type: "string", description: "Working directory (default: the current one)" },
    caps: { type: "string", description: "Comma-separated capabilities, e.g. vision" },
    timeout: { type: "string", description: "Time budget in seconds (30–3600)" },
    ...configArg,
    json: { type: "boolean", description: "Print the whole result (trace, usage, answer) as JSON on stdout" },
    "dry-run": { type: "boolean", description: "Print the ordered recipients, every decision, the budget split and each one's estimated cost; send nothing" },
    prompt: { type: "positional", required: false, description: "The task (- reads it from stdin); with --dry-run, optional: counted for the estimate" },
  },
  async run({ args }) {
    const tier = TIERS.find((t) => t === args.tier);
    if (!tier) return exitWith(`--tier must be one of ${TIERS.join(", ")}.${didYouMean(args.tier, TIERS)}`, EXIT.usage);
    if (args.prompt === undefined && !args["dry-run"])
      return exitWith("Missing required argument: PROMPT (the task, or - to read it from stdin)\nSee: orchestrate run --help", EXIT.usage);
    // Digits only; the range (30–3600) is the route's own check, which answers invalid_timeout.
    const timeoutSec = args.timeout === undefined ? undefined : wholeNumber(args.timeout, 0, 1_000_000);
    if (args.timeout !== undefined && timeoutSec === undefined) return exitWith("--timeout takes whole seconds (30–3600)", EXIT.usage);
    const rt = await createRuntime(process.env, args.config);
    if (!rt.ok) return exitWith(failureLines(rt.error, shellWords), exitCodeFor(rt.error.code));
    const caps = args.caps
      ? args.caps
          .split(",")
          .map((c) => c.trim())
          .filter(Boolean)
      : undefined;
    const unknownCap = caps && unknownCapability(rt.value.config, caps);
    if (unknownCap) return exitWith(unknownCap, EXIT.usage);
    const request = { cwd: resolve(args.cwd ?? process.cwd()), tier, ...(caps ? { caps } : {}), ...(timeoutSec !== undefined ? { timeoutSec } : {}) };
    const prompt = args.prompt === "-" ? await readStdin() : (args.prompt ?? "");
    if (args["dry-run"]) return dryRunExit(rt.value, { ...request, ...(prompt ? { prompt } : {}) }, args.json === true);
    const abort = new AbortController();
    const status = new StatusLine(stderr);
    installShutdownHandlers({ onShutdown: () => abort.abort("shutdown") });
    const outcome = await routeTask(rt.value, { prompt, ...request }, { signal: abort.signal, onProgress: (m) => status.update(m) });
    status.done();
    await killAllLive("shutdown");
    const { text, ...rest } = outcome;
    const record = outcome.runId ? rt.value.store.runs.getRun(outcome.runId) : undefined;
    stderr.write(`${formatRoute({ ...rest, attempts: outcome.attempts }, record ? personTrace(outcome, record) : undefined)}\n`);
    if (args.json) printJson(outcome);
    const error = personError(outcome, record);
    if (!outcome.ok)
      return exitWith(
        `${errorText({ code: outcome.error.code, message: shellWords(error?.message ?? ""), hint: shellHint(outcome.error.code, error?.hint)?.replace("--tier T`", `--tier ${tier}\``) })}${text ? `\nPartial output:\n${text}` : ""}`,
        exitCodeFor(outcome.error.code),
      );
    if (!args.json) stdout.write(`${text ?? ""}\n`);
    endCommand(EXIT.ok);
  },
});

/** A capability no agent has and no slot serves is a typo more often than not: the nearest one is named. */
function unknownCapability(config: Config, caps: string[]): string | undefined {
  const known = [...new Set([...Object.values(config.agents).flatMap((a) => a.capabilities), ...Object.keys(config.capabilitySlots)])].sort();
  const unknown = caps.find((c) => !known.includes(c));
  if (unknown === undefined) return undefined;
  return `--caps ${unknown}: no agent has it and no capability slot serves it.${didYouMean(unknown, known)} Known: ${known.join(", ") || "none configured"}.`;
}

/** `run --dry-run`: router_dry_run from a shell — the plan on stdout, nothing sent. */
async function dryRunExit(rt: Runtime, request: DryRunRequest, json: boolean): Promise<never> {
  const out = await dryRun(rt, request);
  if (!out.ok)
    return exitWith(
      errorText({ code: out.error.code, message: shellWords(out.error.message), hint: out.error.hint === undefined ? undefined : shellWords(out.error.hint) }),
      exitCodeFor(out.error.code),
    );
  if (json) printJson(out.value);
  else stdout.write(`${formatDryRun(out.value)}\n`);
  endCommand(EXIT.ok);
}
