import { createConsola, type ConsolaInstance } from "consola";
import { stderr } from "./safety/egress.ts";

/**
 * The one logger. stdout is the MCP stream, so every level writes to stderr — consola's
 * info/log/success default to stdout, which would corrupt the protocol — and stderr here is the
 * scrubbing one (safety/egress.ts): an error's message or stack can quote a delegate's command line.
 */
export const log: ConsolaInstance = createConsola({
  stdout: stderr,
  stderr,
  level: Number(process.env.ORCHESTRATE_LOG_LEVEL ?? 3),
  formatOptions: { date: false, colors: stderr.isTTY === true },
});
