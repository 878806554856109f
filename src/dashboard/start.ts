/**
 * From the command line's options to a running dashboard: the read-only runtime, then the server.
 * A port already taken is an error with the fix, not a crash.
 */
import { openReadonlyRuntime } from "../services/dashboard/index.ts";
import { blockAt, readRawConfig } from "../config/presence.ts";
import { managedSourceFor } from "../config/managed.ts";
import { editHandler } from "./edit.ts";
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
  const configPath = rt.value.config.source.path;
  const env = o.configPath ? { ...o.env, ORCHESTRATE_CONFIG: o.configPath } : o.env;
  const raw = readRawConfig(env);
  // Validated by the hardened load above; seed 001 spells it consult.dashboard.editable.
  const editable = blockAt(raw, "dashboard", "editable") === true || blockAt(raw, "consult", "dashboard", "editable") === true;
  const notes = editable && !configPath ? ["dashboard.editable needs a config file; serving read-only."] : [];
  // The file the loader merges: managed.yaml beside the config, or a seed 001 config's agents.yaml.
  const target = editable && configPath ? managedSourceFor(configPath, raw, o.env) : undefined;
  const edit = target && configPath ? { managedPath: target.path, edit: editHandler(configPath, target) } : {};
  if (edit.managedPath) notes.push(`Editable: agent and reviewer changes go to ${edit.managedPath} (0600); the main config is never rewritten.`);
  try {
    return { ok: true, value: { dashboard: startDashboard({ rt: rt.value, port: o.port, ...edit }), notes } };
  } catch (error) {
    rt.value.store.close();
    const reason = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      error: { message: `Cannot serve the dashboard on 127.0.0.1:${o.port}: ${reason}`, hint: "Pick another port with --port N (0 picks a free one)." },
    };
  }
}
