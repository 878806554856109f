import { defineCommand } from "citty";
import { resolve } from "node:path";
import { TIERS } from "../config/types.ts";
import { createRuntime } from "../services/shared/runtime.ts";
import { routeTask } from "../services/route/index.ts";
import { formatRoute } from "../mcp/tools/core/format.ts";
import { installShutdownHandlers, killAllLive } from "../process/live.ts";
import { EXIT, EXIT_HELP, exitCodeFor } from "./exit-codes.ts";
import { wholeNumber } from "./numbers.ts";
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
    config: { type: "string", description: "Config file (default: the server's lookup)" },
    json: { type: "boolean", description: "Print the whole result (trace, usage, answer) as JSON on stdout" },
    prompt: { type: "positional", required: true, description: "The task (- reads it from stdin)" },
  },
  async run({ args }) {
    const tier = TIERS.find((t) => t === args.tier);
    if (!tier) return exitWith(`--tier must be one of ${TIERS.join(", ")}`, EXIT.usage);
    // Digits only; the range (30–3600) is the route's own check, which answers invalid_timeout.
    const timeoutSec = args.timeout === undefined ? undefined : wholeNumber(args.timeout, 0, 1_000_000);
    if (args.timeout !== undefined && timeoutSec === undefined) return exitWith("--timeout takes whole seconds (30–3600)", EXIT.usage);
    const prompt = args.prompt === "-" ? await Bun.stdin.text() : args.prompt;
    const rt = await createRuntime(process.env, args.config);
    if (!rt.ok) return exitWith(`${rt.error.message}${rt.error.hint ? `\n${rt.error.hint}` : ""}`, exitCodeFor(rt.error.code));
    const abort = new AbortController();
    installShutdownHandlers({ onShutdown: () => abort.abort("shutdown") });
    const outcome = await routeTask(
      rt.value,
      { prompt, cwd: resolve(args.cwd ?? process.cwd()), tier, ...(args.caps ? { caps: args.caps.split(",").map((c) => c.trim()).filter(Boolean) } : {}), ...(timeoutSec !== undefined ? { timeoutSec } : {}) },
      { signal: abort.signal, onProgress: (m) => stderr.write(`… ${m}\n`) },
    );
    await killAllLive("shutdown");
    const { text, ...rest } = outcome;
    const record = outcome.runId ? rt.value.store.runs.getRun(outcome.runId) : undefined;
    stderr.write(`${formatRoute({ ...rest, attempts: outcome.attempts }, record ? personTrace(outcome, record) : undefined)}\n`);
    if (args.json) printJson(outcome);
    const error = personError(outcome, record);
    if (!outcome.ok) return exitWith(`Error [${outcome.error?.code}]: ${error?.message}${error?.hint ? `\nNext: ${error.hint}` : ""}${text ? `\nPartial output:\n${text}` : ""}`, exitCodeFor(outcome.error?.code));
    if (!args.json) stdout.write(`${text ?? ""}\n`);
    process.exit(EXIT.ok);
  },
});

function exitWith(message: string, code: number): never {
  stderr.write(`${message}\n`);
  process.exit(code);
}
