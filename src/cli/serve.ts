import { serveFront } from "../mcp/front.ts";
import { installShutdownHandlers, killAllLive } from "../process/live.ts";
import { stderr } from "../safety/egress.ts";
import { endServerLifetime } from "../lifetime.ts";

/**
 * Ends every job (so each records `cancelled` with its partial output) and every live process
 * group, waits for every pending call's answer, then drops the server's state (src/lifetime.ts:
 * the store is closed). Loaded lazily: a server that never ran a job never pays for the jobs
 * module. Also the end of an in-process session in the tests (fakes/lib/in-process.ts), so both
 * end the same way.
 */
export async function shutdown(): Promise<void> {
  const [{ cancelAllJobs }, { drainCalls }] = await Promise.all([import("../services/shared/jobs.ts"), import("../mcp/inflight.ts")]);
  await cancelAllJobs("shutdown");
  await killAllLive("shutdown");
  await drainCalls();
  await endServerLifetime();
}

/**
 * Serve MCP over stdio until the client closes stdin; end every live process group on the way out.
 * This is every client's start-up path: it imports nothing it does not need (no citty, no SDK).
 */
export async function serve(): Promise<void> {
  // Only a person at a terminal reads this; clients never pay for loading every backend.
  if (process.stdin.isTTY) stderr.write((await import("./registration.ts")).registrationHelp());
  // A config that contradicts the environment about the host is refused at boot, not on every call.
  const [{ hostMismatch }, { readRawConfig }] = await Promise.all([import("../config/host-check.ts"), import("../config/presence.ts")]);
  const mismatch = hostMismatch(readRawConfig(process.env), process.env);
  if (mismatch) {
    stderr.write(`orchestrate: refusing to start: ${mismatch}\n`);
    process.exit(2);
  }
  installShutdownHandlers({ onShutdown: () => shutdown().finally(() => process.exit(0)) });
  await serveFront({ env: process.env });
  await shutdown();
  process.exit(0);
}
