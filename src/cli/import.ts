import { defineCommand } from "citty";
import { exitWith, failureLines, endCommand } from "./exit-codes.ts";
import { stdout, stderr } from "../safety/egress.ts";

/**
 * `orchestrate import FILE [--out PATH]`: converts an mcp-router config.json or an Orchestrator
 * config.yaml to the unified format, shows the result, diff and risks, and writes only on a
 * confirmation at a terminal. Without one it prints the converted text and writes nothing. When the
 * target would shadow the config the server reads today, that is said first and the live file is
 * offered instead (setup/live-choice.ts).
 */
export const importCommand = defineCommand({
  meta: {
    name: "import",
    description: "Convert an mcp-router config.json or Orchestrator config.yaml into orchestrate's format; writes only after you confirm.",
  },
  args: {
    file: { type: "positional", required: false, description: "The old config file" },
    out: { type: "string", description: "Where to write (default: the server's config path)" },
    history: { type: "string", description: "Import Orchestrator MCP's consultations database (read only) into orchestrate's store instead" },
  },
  async run({ args }) {
    if (args.history !== undefined) return importHistory(args.history);
    if (!args.file) return exitWith("Name the old config file, or --history <consultations.sqlite3>.");
    const { targetConfigPath, liveConflict } = await import("../setup/target.ts");
    const { terminalProblem, confirm, Cancelled } = await import("../setup/prompts.ts");
    const atTerminal = terminalProblem() === undefined;
    const cancelled = (error: unknown) => (error instanceof Cancelled ? undefined : Promise.reject(error));
    let target = targetConfigPath(process.env, args.out);
    if (atTerminal) {
      const { chooseTarget } = await import("../setup/live-choice.ts");
      const chosen = await chooseTarget(process.env, target).catch(cancelled);
      if (chosen === undefined) return exitWith("Nothing was written.");
      target = chosen;
    }
    const { convertFile } = await import("../setup/import-convert.ts");
    const { formatRisks } = await import("../setup/risks.ts");
    const file = args.file;
    const converted = await convertFile(file, target, process.env);
    if (!converted.ok) return exitWith(`✗ ${failureLines(converted.error)}`);
    const { proposal, ignored, from, via } = converted.value;
    if (via)
      stderr.write(
        `${args.file} registers mcp-router as "${via.server}" (npx mcp-orchestrate), which reads ${via.routerConfig}.\nAfter writing, replace its command with orchestrate (no args; drop any MCP_ROUTER_CONFIG so the written file is read).\n`,
      );
    stderr.write(`Converted ${args.file} (${from} format):\n\n`);
    stdout.write(proposal.text);
    if (ignored.length) stderr.write(`\nAccepted but without effect in orchestrate: ${ignored.join(", ")}\n`);
    stderr.write(`\n${proposal.diff}\n${formatRisks(proposal.risks)}`);
    if (!atTerminal) {
      const conflict = liveConflict(process.env, target);
      return exitWith(`${conflict ? `! ${conflict.message}\n` : ""}Not written: confirming needs a terminal. Run orchestrate import ${args.file} in one.`);
    }
    const yes = await confirm(`Write ${target}?`, false).catch((error: unknown) => (error instanceof Cancelled ? false : Promise.reject(error)));
    if (!yes) return exitWith("Nothing was written.");
    const { writeConfigAtomic } = await import("../config/write.ts");
    const written = writeConfigAtomic(target, proposal.text);
    if (!written.ok) return exitWith(`✗ ${failureLines(written.error)}`);
    stderr.write(`✓ wrote ${written.value} (0600). Check it with: orchestrate check ${written.value}\n`);
    endCommand(0);
  },
});

/**
 * Orchestrator MCP's consultations into the store the server uses (its config decides where). The
 * database is opened read-only; a re-run skips what is already here.
 */
async function importHistory(path: string): Promise<never> {
  const { createRuntime } = await import("../services/shared/runtime.ts");
  const rt = await createRuntime(process.env);
  if (!rt.ok) return exitWith(`✗ ${failureLines(rt.error)}`);
  const { importSeedHistory } = await import("../services/history/import-seed.ts");
  const done = importSeedHistory(rt.value.store, path);
  rt.value.store.close();
  if (!done.ok) return exitWith(`✗ ${failureLines(done.error)}`);
  const { imported, skipped, turns, resumable } = done.value;
  stderr.write(
    `✓ imported ${imported} consultation(s), ${turns} turn(s) from ${path} (left unchanged); ${skipped} already here were skipped. ${resumable} can be continued with their consultation_id.\n`,
  );
  endCommand(0);
}
