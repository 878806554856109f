import { defineCommand } from "citty";
import { configArg } from "./config-arg.ts";
import { exitWith, failureLines } from "./exit-codes.ts";
import { wholeNumber } from "./numbers.ts";
import { stdout, stderr } from "../safety/egress.ts";

/**
 * `orchestrate dashboard [--port N] [--open]`: the loopback dashboard over the store, read-only.
 * Glue only; the server lives in src/dashboard/ and is imported here lazily, so nothing of it
 * loads for `orchestrate` serving MCP. The URL (with this process's token) goes to stdout.
 */
export const dashboardCommand = defineCommand({
  meta: {
    name: "dashboard",
    description: "Serve a read-only dashboard of runs, consultations, jobs and usage on 127.0.0.1 (prints its URL with a one-process token).",
  },
  args: {
    port: { type: "string", description: "Port on 127.0.0.1 (default 8765; 0 picks a free one)" },
    open: { type: "boolean", description: "Open the URL in the default browser" },
    host: { type: "string", description: "Ignored unless 127.0.0.1: the dashboard binds loopback only" },
    ...configArg,
  },
  async run({ args }) {
    const port = args.port === undefined ? 8765 : wholeNumber(args.port, 0, 65535);
    if (port === undefined) return exitWith("--port takes a port number in decimal digits (0–65535)");
    if (args.host !== undefined && args.host !== "127.0.0.1")
      stderr.write(`orchestrate dashboard binds 127.0.0.1 only; --host ${args.host} was ignored (what it shows is every stored prompt).\n`);
    const { openDashboard } = await import("../dashboard/start.ts");
    const started = await openDashboard({ env: process.env, port, ...(args.config ? { configPath: args.config } : {}) });
    if (!started.ok) return exitWith(failureLines(started.error));
    const { dashboard, notes } = started.value;
    for (const note of notes) stderr.write(`${note}\n`);
    stdout.write(`${dashboard.url}\n`);
    stderr.write("Open the URL above (it carries this process's token). Ctrl-C stops the dashboard.\n");
    if (args.open) openInBrowser(dashboard.url);
    const stop = () => void dashboard.stop().then(() => process.exit(0));
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  },
});

function openInBrowser(url: string): void {
  const opener = process.platform === "darwin" ? "open" : "xdg-open";
  if (!Bun.which(opener)) return void stderr.write(`--open: ${opener} is not installed; open the URL yourself.\n`);
  Bun.spawn([opener, url], { stdio: ["ignore", "ignore", "ignore"] }).unref();
}
