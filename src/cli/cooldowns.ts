import { defineCommand } from "citty";
import { configArg } from "./config-arg.ts";
import { adapters } from "../backends/index.ts";
import { clearCooldowns, cooldownsByAgent } from "../services/shared/cooling.ts";
import { failureWords } from "../services/shared/failure-words.ts";
import { createRuntime, type Runtime } from "../services/shared/runtime.ts";
import { EXIT, failureLines, endCommand } from "./exit-codes.ts";
import { stdout, stderr } from "../safety/egress.ts";

/**
 * `orchestrate cooldowns [clear [AGENT]]`: the cooldowns every orchestrate process on this machine
 * honours, read through the router's own lookup (services/shared/cooling.ts), and a way to end
 * them — once a provider is back, say — instead of waiting them out. An auth cooldown also ends by
 * itself at the next route once the CLI's sign-in probe says it is signed in again.
 */

async function withRuntime(configPath: string | undefined, fn: (rt: Runtime) => number): Promise<never> {
  const rt = await createRuntime(process.env, configPath);
  if (!rt.ok) {
    stderr.write(`${failureLines(rt.error)}\n`);
    endCommand(EXIT.usage);
  }
  try {
    endCommand(fn(rt.value));
  } finally {
    rt.value.store.close();
  }
}

const clear = defineCommand({
  meta: { name: "clear", description: "End one agent's cooldown, or (with no AGENT) every cooldown in force." },
  args: { ...configArg, agent: { type: "positional", required: false, description: "Agent id (default: all)" } },
  run: ({ args }) =>
    withRuntime(args.config, (rt) => {
      const agent = args.agent;
      if (agent !== undefined && !rt.config.agents[agent]) {
        stderr.write(`No agent "${agent}" is configured; \`orchestrate cooldowns\` lists the cooling ones.\n`);
        return EXIT.usage;
      }
      const cleared = clearCooldowns(rt, agent);
      stdout.write(
        agent ? (cleared ? `Cleared ${agent}'s cooldown.\n` : `${agent} was not cooling.\n`) : `Cleared ${cleared} cooldown${cleared === 1 ? "" : "s"}.\n`,
      );
      return EXIT.ok;
    }),
});

export const cooldownsCommand = defineCommand({
  meta: { name: "cooldowns", description: "List the agents cooling down now (why, until when, what ends it); `clear [AGENT]` ends them." },
  args: configArg,
  subCommands: { clear },
  run: ({ args }) =>
    withRuntime(args.config, (rt) => {
      stdout.write(formatCooldowns(rt));
      return EXIT.ok;
    }),
});

export function formatCooldowns(rt: Runtime): string {
  const now = rt.now();
  const cooling = [...cooldownsByAgent(rt, now)];
  if (cooling.length === 0) return "No agent is cooling down.\n";
  const lines = [`Cooling down (${cooling.length}):`];
  for (const [id, c] of cooling) {
    const agent = rt.config.agents[id];
    if (!agent) continue;
    const words = failureWords(c.cls, undefined, adapters[agent.backend]);
    const until = `${new Date(c.until).toISOString().slice(11, 19)} UTC (${Math.ceil((c.until - now) / 1000)} s)`;
    const ends =
      c.cls === "auth"
        ? `sign in (${words.fix ?? "the CLI's login"}); the next route checks and clears it`
        : `\`orchestrate cooldowns clear ${id}\` once it is back`;
    lines.push(`  ${id} (${agent.backend}${agent.model ? ` · ${agent.model}` : ""}) — ${words.words}, until ${until}; ${ends}`);
  }
  lines.push("Clear them: orchestrate cooldowns clear [AGENT]");
  return `${lines.join("\n")}\n`;
}
