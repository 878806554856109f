/**
 * Tool calls still being answered. On shutdown the server ends every job first, then waits here so
 * each pending call gets its (cancelled) answer written before the process exits. No SDK imports:
 * the shutdown path must not load what start-up avoided.
 */
import { stdoutDrained } from "../safety/egress.ts";

const calls = new Set<Promise<unknown>>();

export function trackCall<T>(call: Promise<T>): Promise<T> {
  calls.add(call);
  void call.finally(() => calls.delete(call)).catch(() => undefined);
  return call;
}

/** Waits for every pending call to be answered (at most `maxMs`), then for stdout to drain. */
export async function drainCalls(maxMs = 5000): Promise<void> {
  if (calls.size > 0) await Promise.race([Promise.allSettled([...calls]), Bun.sleep(maxMs)]);
  // The SDK writes the answer on a later tick than the handler's resolution.
  await new Promise((resolve) => setTimeout(resolve, 0));
  await stdoutDrained();
}
