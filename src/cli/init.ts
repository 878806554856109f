import { defineCommand } from "citty";
import { exitWith, endCommand } from "./exit-codes.ts";
import { BACKENDS, type Backend } from "../backends/index.ts";
import { selfCommand } from "./registration.ts";

/**
 * `orchestrate init [path]` (also `--init`): the TTY wizard. Glue only — the steps live in
 * src/setup/. A cancel at any prompt (Ctrl-C, Escape) writes nothing.
 */
export const initCommand = defineCommand({
  meta: {
    name: "init",
    description:
      "Guided setup in a terminal: detect CLIs, pick models per tier, review diff and risks, write the config 0600, check it, register with clients.",
  },
  args: {
    path: { type: "positional", required: false, description: "Config file to write (default: the server's lookup)" },
    host: { type: "string", description: `Preset the host runtime: ${BACKENDS.join(" | ")}` },
  },
  async run({ args }) {
    const { terminalProblem, startInput, Cancelled } = await import("../setup/prompts.ts");
    const problem = terminalProblem();
    if (problem) return exitWith(`orchestrate init: ${problem}`);
    if (args.host !== undefined && !BACKENDS.includes(args.host as Backend)) return exitWith(`--host must be one of ${BACKENDS.join(", ")}`);
    const { targetConfigPath } = await import("../setup/target.ts");
    const { runInit } = await import("../setup/init-flow.ts");
    // Keys are read (and queued) from the start: what is typed during detection is kept.
    startInput(() => exitWith("Cancelled — nothing was written."));
    try {
      const target = targetConfigPath(process.env, args.path);
      const { chooseTarget } = await import("../setup/live-choice.ts");
      const path = await chooseTarget(process.env, target);
      const code = await runInit({ path, env: process.env, self: selfCommand(), ...(args.host ? { host: args.host as Backend } : {}) });
      endCommand(code);
    } catch (error) {
      if (!(error instanceof Cancelled)) throw error;
      exitWith("Cancelled — nothing was written.");
    }
  },
});
