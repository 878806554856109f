import { defineCommand } from "citty";
import { resolve } from "node:path";
import { TIERS, type Tier } from "../config/types.ts";
import { createRuntime } from "../services/runtime.ts";
import { routeTask } from "../services/route.ts";
import { formatRoute } from "../mcp/tools/core/format.ts";
import { installShutdownHandlers, killAllLive } from "../process/live.ts";

/** `orchestrate run --tier T [--cwd D] "prompt"`: the same routing from a shell. Trace → stderr, answer → stdout. */
export const runCommand = defineCommand({
  meta: { name: "run", description: "Route one task from a shell: the trace goes to stderr, the answer to stdout." },
  args: {
    tier: { type: "string", required: true, description: "light | standard | heavy" },
    cwd: { type: "string", description: "Working directory (default: the current one)" },
    caps: { type: "string", description: "Comma-separated capabilities, e.g. vision" },
    timeout: { type: "string", description: "Time budget in seconds (30–3600)" },
    config: { type: "string", description: "Config file (default: the server's lookup)" },
    prompt: { type: "positional", required: true, description: "The task" },
  },
  async run({ args }) {
    if (!TIERS.includes(args.tier as Tier)) return exitWith(`--tier must be one of ${TIERS.join(", ")}`);
    const rt = await createRuntime(process.env, args.config);
    if (!rt.ok) return exitWith(`${rt.error.message}${rt.error.hint ? `\n${rt.error.hint}` : ""}`);
    const abort = new AbortController();
    installShutdownHandlers({ onShutdown: () => abort.abort("shutdown") });
    const outcome = await routeTask(
      rt.value,
      { prompt: args.prompt, cwd: resolve(args.cwd ?? process.cwd()), tier: args.tier as Tier, ...(args.caps ? { caps: args.caps.split(",").map((c) => c.trim()).filter(Boolean) } : {}), ...(args.timeout ? { timeoutSec: Number(args.timeout) } : {}) },
      { signal: abort.signal, onProgress: (m) => process.stderr.write(`… ${m}\n`) },
    );
    await killAllLive("shutdown");
    const { text, ...rest } = outcome;
    process.stderr.write(`${formatRoute({ ...rest, attempts: outcome.attempts })}\n`);
    if (!outcome.ok) return exitWith(`Error [${outcome.error?.code}]: ${outcome.error?.message}${outcome.error?.hint ? `\nNext: ${outcome.error.hint}` : ""}${text ? `\nPartial output:\n${text}` : ""}`);
    process.stdout.write(`${text ?? ""}\n`);
    process.exit(0);
  },
});

function exitWith(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}
