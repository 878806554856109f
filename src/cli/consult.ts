import { defineCommand } from "citty";
import { configArg } from "./config-arg.ts";
import { errorText } from "../result.ts";
import { readFileSync } from "node:fs";
import { BACKENDS } from "../backends/index.ts";
import { EXIT, EXIT_HELP, exitCodeFor, exitWith, failureLines, endCommand } from "./exit-codes.ts";
import { printJson, stdout, stderr } from "../safety/egress.ts";
import { didYouMean, shellHint, shellWords } from "./shell-hints.ts";
import { readStdin } from "./stdin.ts";

/**
 * `orchestrate consult --capability C "question"`: the consult tool from a shell, for agent skills
 * and scripts — the same routing (capability scores, the host's runtime excluded, no fallback),
 * the answer on stdout, who answered and how (model check, latency, usage) on stderr.
 */
export const consultCommand = defineCommand({
  meta: { name: "consult", description: `Ask another vendor's agent for a second opinion, answer-only. Answer → stdout, trace → stderr. ${EXIT_HELP}` },
  args: {
    capability: { type: "string", required: true, description: "What to ask for, by score: coding, review, research, …" },
    agent: { type: "string", description: "Ask this agent id instead of the best-scored one" },
    "consultation-id": { type: "string", description: "Continue this consultation (same agent and native session)" },
    context: { type: "string", description: "A file whose text goes along as context (- reads stdin)" },
    "context-only": { type: "boolean", description: "Answer from the context alone (source_mode context_only)" },
    web: { type: "boolean", description: "Web mode: an agent trusted with the web may search it (source_mode web)" },
    host: {
      type: "string",
      description: `The runtime you are calling from (${BACKENDS.join(" | ")}); default ORCHESTRATE_HOST_RUNTIME, else the config's host`,
    },
    json: { type: "boolean", description: "Print the whole envelope as JSON on stdout" },
    ...configArg,
    prompt: { type: "positional", required: true, description: "The question (- reads it from stdin)" },
  },
  async run({ args }) {
    const host = args.host;
    if (host !== undefined && !BACKENDS.some((b) => b === host)) return exitWith(`--host must be one of ${BACKENDS.join(", ")}`, EXIT.usage);
    if (args.prompt === "-" && args.context === "-") return exitWith("Only one of the question and --context can come from stdin.", EXIT.usage);
    const env = host ? { ...process.env, ORCHESTRATE_HOST_RUNTIME: host } : process.env;
    const prompt = args.prompt === "-" ? await readStdin() : args.prompt;
    const context = args.context === undefined ? undefined : args.context === "-" ? await readStdin() : readContext(args.context);
    const { createRuntime } = await import("../services/shared/runtime.ts");
    const rt = await createRuntime(env, args.config);
    if (!rt.ok) return exitWith(failureLines(rt.error, shellWords), exitCodeFor(rt.error.code));
    const capabilities = [...new Set(Object.values(rt.value.config.agents).flatMap((a) => Object.keys(a.scores)))].sort();
    const { consult } = await import("../services/consult/index.ts");
    const { installShutdownHandlers, killAllLive } = await import("../process/live.ts");
    const abort = new AbortController();
    installShutdownHandlers({ onShutdown: () => abort.abort("shutdown") });
    const envelope = await consult(
      rt.value,
      {
        prompt,
        capability: args.capability,
        ...(context !== undefined ? { context } : {}),
        ...(args.agent ? { agent: args.agent } : {}),
        ...(args["consultation-id"] ? { consultation_id: args["consultation-id"] } : {}),
        ...(args.web ? { source_mode: "web" } : args["context-only"] ? { source_mode: "context_only" } : {}),
      },
      { signal: abort.signal, onProgress: (m) => stderr.write(`… ${m}\n`) },
    );
    await killAllLive("shutdown");
    rt.value.store.close();
    const { formatConsult } = await import("../mcp/tools/consult/format.ts");
    stderr.write(`${shellWords(formatConsult({ ...envelope, content: null }))}\n`);
    if (args.json) printJson(envelope);
    if (!envelope.ok || !envelope.content) {
      const e = envelope.error;
      const typo =
        e?.code === "no_eligible_agent" && !capabilities.includes(args.capability)
          ? `${didYouMean(args.capability, capabilities)} Capabilities with scores: ${capabilities.join(", ") || "none"}.`
          : "";
      const hint = shellHint(e?.code, e?.hint);
      return exitWith(errorText({ code: e?.code ?? "bad_output", message: `${shellWords(e?.message ?? "no answer")}${typo}`, hint }), exitCodeFor(e?.code));
    }
    if (!args.json) stdout.write(`${formatConsult({ content: envelope.content, ok: true, usage: {}, latency_ms: 0 }).trimStart()}\n`);
    endCommand(EXIT.ok);
  },
});

function readContext(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    return exitWith(`--context ${path}: ${error instanceof Error ? error.message : String(error)}`, EXIT.usage);
  }
}
