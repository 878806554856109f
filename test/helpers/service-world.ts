/**
 * A runtime for tests that call the services directly (no MCP session): a sandbox with the config
 * written, the runtime built over its store, and one close for both.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { makeSandbox, type Sandbox } from "../../fakes/lib/sandbox.ts";
import { createRuntime, type Runtime } from "../../src/services/shared/runtime.ts";

export interface ServiceWorld {
  box: Sandbox;
  rt: Runtime;
  close(): void;
}

/** `config` is the file's text, or a function of the sandbox for configs that name its paths. */
export async function openServiceWorld(config: string | ((box: Sandbox) => string), env: Record<string, string> = {}): Promise<ServiceWorld> {
  const box = makeSandbox(env);
  box.writeConfig(typeof config === "string" ? config : config(box));
  const opened = await createRuntime(box.env);
  if (!opened.ok) {
    box.cleanup();
    throw new Error(opened.error.message);
  }
  const rt = opened.value;
  return {
    box,
    rt,
    close: () => {
      rt.store.close();
      box.cleanup();
    },
  };
}

/** A record dir of one agent's own (its env's FAKE_RECORD_DIR), so a test can tell which agent a fake ran for. */
export function agentRecordDir(box: Sandbox, agent: string): string {
  return join(box.root, `rec-${agent}`);
}

/** How many times the fake ran for that agent: one recording per invocation. */
export function spawnCount(box: Sandbox, agent: string): number {
  const dir = agentRecordDir(box, agent);
  return existsSync(dir) ? readdirSync(dir).length : 0;
}
