/**
 * Entry point. Serving MCP (no arguments) is the hot path every client pays at every start, so it
 * skips citty and imports only the server; subcommands load lazily through citty.
 */
export async function runCli(argv: string[]): Promise<void> {
  if (argv.length === 0) {
    const { serve } = await import("./serve.ts");
    await serve();
    return;
  }
  const { runMain, runCommand } = await import("citty");
  const { rootCommand } = await import("./root.ts");
  const rawArgs = normalizeLegacyFlags(argv);
  // --help and --version are citty's own; anything else runs here, so a bad call exits 2 as README
  // and exit-codes.ts say (citty's runMain exits 1 for a missing required flag).
  if (rawArgs.some((a) => a === "--help" || a === "-h") || (rawArgs.length === 1 && (rawArgs[0] === "--version" || rawArgs[0] === "-v"))) {
    await runMain(rootCommand, { rawArgs });
    return;
  }
  try {
    await runCommand(rootCommand, { rawArgs });
  } catch (error) {
    // Loaded here, off the serve path: an error's stack or message can quote what a command was given.
    const [{ stderr }, { CommandEnded, EXIT, endCommand }] = await Promise.all([import("../safety/egress.ts"), import("./exit-codes.ts")]);
    // A command that ended inside a test's process (exit-codes.ts) is not an error of the command line.
    if (error instanceof CommandEnded) throw error;
    if (!(error instanceof Error) || error.name !== "CLIError") {
      stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      return endCommand(1);
    }
    const sub = rawArgs.find((a) => !a.startsWith("-"));
    stderr.write(`${error.message.replace(/\x1b\[[0-9;]*m/g, "")}\nSee: orchestrate ${sub && error.message.startsWith("Missing") ? `${sub} ` : ""}--help\n`);
    return endCommand(EXIT.usage);
  }
}

/** The seeds' flag forms (`--check [path]`, `--init`, `--accept-pending`) map onto subcommands. */
export function normalizeLegacyFlags(argv: string[]): string[] {
  const [first, ...rest] = argv;
  const legacy: Record<string, string> = { "--check": "check", "--init": "init", "--accept-pending": "accept-pending" };
  if (first && legacy[first]) return [legacy[first], ...rest];
  return argv;
}
