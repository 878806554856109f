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
  const { runMain } = await import("citty");
  const { rootCommand } = await import("./root.ts");
  await runMain(rootCommand, { rawArgs: normalizeLegacyFlags(argv) });
}

/** The seeds' flag forms (`--check [path]`, `--init`, `--accept-pending`) map onto subcommands. */
export function normalizeLegacyFlags(argv: string[]): string[] {
  const [first, ...rest] = argv;
  const legacy: Record<string, string> = { "--check": "check", "--init": "init", "--accept-pending": "accept-pending" };
  if (first && legacy[first]) return [legacy[first], ...rest];
  return argv;
}
