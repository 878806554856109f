import { defineCommand } from "citty";
import { loadConfig } from "../config/load.ts";
import { resolveConfigPath } from "../config/paths.ts";
import { runDoctor } from "../doctor/checks.ts";
import { formatCliLine, formatDoctor } from "../doctor/format.ts";

/**
 * `orchestrate check [path]` (also `--check [path]`): the exact hardened load path the server uses,
 * then the doctor's view of tiers, agents and CLIs. Exit 0 valid, 1 invalid or absent.
 */
export const checkCommand = defineCommand({
  meta: { name: "check", description: "Validate the config through the server's hardened load path and report tiers, agents and installed CLIs." },
  args: {
    path: { type: "positional", required: false, description: "Config file (default: the server's lookup)" },
  },
  async run({ args }) {
    const env = process.env;
    const location = args.path ? { path: args.path, exists: true } : resolveConfigPath(env);
    if (!location.exists) {
      process.stdout.write(`No config file found (looked for ${location.path}).\nThe server would run with every tier unconfigured. Create one with: orchestrate init\n`);
      process.exit(1);
    }
    const config = await loadConfig({ env, ...(args.path ? { path: args.path } : {}) });
    if (!config.ok) {
      process.stdout.write(`✗ ${config.error.message}\n${config.error.hint ? `Fix: ${config.error.hint}\n` : ""}`);
      process.exit(1);
    }
    // Each CLI's line as it answers (they are probed in parallel), then the rest of the report.
    process.stdout.write(`✓ ${location.path} is valid\nCLIs:\n`);
    const report = await runDoctor(config.value, env, { onCli: (cli) => process.stdout.write(`${formatCliLine(cli)}\n`) });
    process.stdout.write(formatDoctor(report, { clis: false }));
    process.exit(0);
  },
});
