import { createConsola, type ConsolaInstance } from "consola";

/**
 * The one logger. stdout is the MCP stream, so every level writes to stderr — consola's
 * info/log/success default to stdout, which would corrupt the protocol.
 */
export const log: ConsolaInstance = createConsola({
  stdout: process.stderr,
  stderr: process.stderr,
  level: Number(process.env.ORCHESTRATE_LOG_LEVEL ?? 3),
  formatOptions: { date: false, colors: process.stderr.isTTY === true },
});
