/** The `--config` flag every command that reads the config takes, described once. */
export const configArg = { config: { type: "string", description: "Config file (default: the server's lookup)" } } as const;
