import { defineCommand } from "citty";
import { loadConfig } from "../config/load.ts";
import { resolveConfigPath } from "../config/paths.ts";
import { problemCounts, runDoctor } from "../doctor/checks.ts";
import { formatCliLine, formatDoctor, formatVerdict } from "../doctor/format.ts";
import { stdout } from "../safety/egress.ts";
import { endCommand } from "./exit-codes.ts";

/** `check`'s exit codes (README, Command line). */
export const CHECK_EXIT = { ok: 0, invalid: 1, blocked: 3 } as const;

/**
 * `orchestrate check [path]` (also `--check [path]`): the exact hardened load path the server uses,
 * then the doctor's view of tiers, agents and CLIs. Exit 0 valid and nothing blocks an agent, 1
 * invalid or absent, 3 valid but a problem keeps an agent from running.
 */
export const checkCommand = defineCommand({
  meta: {
    name: "check",
    description:
      "Validate the config through the server's hardened load path and report tiers, agents and installed CLIs. Exit 0 ok · 1 invalid or absent · 3 valid, but a problem blocks an agent.",
  },
  args: {
    path: { type: "positional", required: false, description: "Config file (default: the server's lookup)" },
  },
  async run({ args }) {
    const env = process.env;
    const location = args.path ? { path: args.path, exists: true } : resolveConfigPath(env);
    if (!location.exists) {
      const skipped = "notice" in location && location.notice ? `Note: ${location.notice}\n` : "";
      stdout.write(
        `No config file found (looked for ${location.path}).\n${skipped}The server would run with every tier unconfigured. Create one with: orchestrate init\n`,
      );
      endCommand(CHECK_EXIT.invalid);
    }
    const { hostMismatch } = await import("../config/host-check.ts");
    const { readRawConfig } = await import("../config/presence.ts");
    const mismatch = args.path ? undefined : hostMismatch(readRawConfig(env), env);
    if (mismatch) {
      stdout.write(`✗ ${location.path}: the server refuses to start: ${mismatch}\n`);
      endCommand(CHECK_EXIT.invalid);
    }
    const config = await loadConfig({ env, ...(args.path ? { path: args.path } : {}) });
    if (!config.ok) {
      stdout.write(`✗ ${config.error.message}\n${config.error.hint ? `Fix: ${config.error.hint}\n` : ""}`);
      endCommand(CHECK_EXIT.invalid);
    }
    // Each CLI's line as it answers (they are probed in parallel), then the rest, then the verdict.
    stdout.write(`${location.path} is valid; checking what it needs…\nCLIs:\n`);
    const report = await runDoctor(config.value, env, { onCli: (cli) => stdout.write(`${formatCliLine(cli)}\n`) });
    stdout.write(formatDoctor(report, { clis: false }));
    stdout.write(formatVerdict(location.path, report));
    endCommand(problemCounts(report).blocking > 0 ? CHECK_EXIT.blocked : CHECK_EXIT.ok);
  },
});
