/**
 * State that lives as long as one server: the runtime (config and open store), probe results per
 * binary, recent failures per deployment, held review scopes. Each module that keeps such state
 * says here how to forget it, when it is first loaded; the end of a server (src/cli/serve.ts
 * shutdown) forgets all of it, so whatever serves next — a new process, or the next in-process
 * session of a test file (fakes/lib/in-process.ts) — starts as a fresh server would. Only modules
 * already loaded are registered: ending a server loads nothing.
 */

type Forget = () => void | Promise<void>;

const forgets = new Set<Forget>();

/** Registers how to drop one module's server-lifetime state. */
export function forgetAtServerEnd(forget: Forget): void {
  forgets.add(forget);
}

/** Drops every registered module's state (closing what it holds open). */
export async function endServerLifetime(): Promise<void> {
  await Promise.all([...forgets].map(async (forget) => forget()));
}
