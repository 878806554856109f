/**
 * From the command line's options to a running dashboard: the read-only runtime, then the server.
 * A port already taken is an error with the fix, not a crash.
 */
import { openReadonlyRuntime } from "../services/dashboard.ts";
import { startDashboard, type Dashboard } from "./server.ts";

export interface OpenOptions {
  env: Record<string, string | undefined>;
  port: number;
  configPath?: string;
}

/** A refusal the command prints: the store's or config's own failure, or the port being taken. */
export type Opened = { ok: true; value: { dashboard: Dashboard; notes: string[] } } | { ok: false; error: { message: string; hint?: string } };

export async function openDashboard(o: OpenOptions): Promise<Opened> {
  const rt = await openReadonlyRuntime(o.env, o.configPath);
  if (!rt.ok) return rt;
  try {
    return { ok: true, value: { dashboard: startDashboard({ rt: rt.value, port: o.port }), notes: [] } };
  } catch (error) {
    rt.value.store.close();
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, error: { message: `Cannot serve the dashboard on 127.0.0.1:${o.port}: ${reason}`, hint: "Pick another port with --port N (0 picks a free one)." } };
  }
}
