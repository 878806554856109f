import { defineCommand } from "citty";
import { configArg } from "./config-arg.ts";
import { BACKENDS } from "../backends/index.ts";
import { EXIT, exitCodeFor, exitWith, failureLines, endCommand } from "./exit-codes.ts";
import { stderr, stdout } from "../safety/egress.ts";

/**
 * `orchestrate agents [--host RUNTIME]`: the consult agents with their scores, readiness and whether
 * this host may consult them (list_agents from a shell; the hints name it).
 */
export const agentsCommand = defineCommand({
  meta: { name: "agents", description: "Who can answer a consult: scores, readiness, and why an agent is excluded for this host." },
  args: {
    host: {
      type: "string",
      description: `The runtime you are calling from (${BACKENDS.join(" | ")}); default ORCHESTRATE_HOST_RUNTIME, else the config's host`,
    },
    ...configArg,
  },
  async run({ args }) {
    const host = args.host;
    if (host !== undefined && !BACKENDS.some((b) => b === host)) return exitWith(`--host must be one of ${BACKENDS.join(", ")}.`, EXIT.usage);
    const { createRuntime } = await import("../services/shared/runtime.ts");
    const rt = await createRuntime(host ? { ...process.env, ORCHESTRATE_HOST_RUNTIME: host } : process.env, args.config);
    if (!rt.ok) return exitWith(failureLines(rt.error), exitCodeFor(rt.error.code));
    const [{ listAgents }, { formatAgents }] = await Promise.all([import("../services/consult/views.ts"), import("../mcp/tools/consult/format.ts")]);
    const listing = await listAgents(rt.value, undefined);
    rt.value.store.close();
    stdout.write(`${formatAgents(listing)}\n`);
    if (!listing.host) stderr.write("The host is unknown: pass --host RUNTIME (the CLI you are calling from), or set ORCHESTRATE_HOST_RUNTIME.\n");
    endCommand(EXIT.ok);
  },
});
