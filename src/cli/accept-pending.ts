import { EXIT, exitWith, failureLines, endCommand } from "./exit-codes.ts";
import { defineCommand } from "citty";
import { stderr } from "../safety/egress.ts";

/**
 * `orchestrate accept-pending [path]` (also `--accept-pending`): the human half of conversational
 * setup. Shows what `init_apply` staged — diff and server-computed risks — and promotes it only on
 * a confirmation typed at a real terminal. There is deliberately no flag to skip that.
 */
export const acceptPendingCommand = defineCommand({
  meta: { name: "accept-pending", description: "Review the config staged by init_apply (diff + risks) and promote it, at a terminal only." },
  args: {
    path: { type: "positional", required: false, description: "Live config file (default: the server's lookup); the staged file is <path>.pending" },
  },
  async run({ args }) {
    const { terminalProblem, confirm, Cancelled } = await import("../setup/prompts.ts");
    const problem = terminalProblem();
    if (problem) return exitWith(`orchestrate accept-pending: ${problem}`);
    const { targetConfigPath } = await import("../setup/target.ts");
    const { loadPending, pendingPath, promote } = await import("../setup/pending.ts");
    const { formatRisks } = await import("../setup/risks.ts");
    const path = targetConfigPath(process.env, args.path);
    const staged = await loadPending(path, process.env);
    if (!staged.ok) return exitWith(`✗ ${failureLines(staged.error)}`);
    stderr.write(`Staged by an MCP client: ${pendingPath(path)}\n\n${staged.value.diff}\n${formatRisks(staged.value.risks)}`);
    try {
      if (!(await confirm(`Replace ${path} with the staged config?`, false))) return exitWith("Not promoted; the staged file is unchanged.");
    } catch (error) {
      // 130 whether the Ctrl-C reached the prompt or, before it was armed, the process as SIGINT.
      if (error instanceof Cancelled) return exitWith("Cancelled — nothing was changed.", EXIT.cancelled);
      throw error;
    }
    const done = promote(staged.value);
    if (!done.ok) return exitWith(`✗ ${failureLines(done.error)}`);
    stderr.write(`✓ promoted to ${done.value} (0600). Restart your MCP clients to load it.\n`);
    endCommand(0);
  },
});
