/**
 * A runtime for tests that call the services directly (no MCP session): a sandbox with the config
 * written, the runtime built over its store, and one close for both.
 */
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
