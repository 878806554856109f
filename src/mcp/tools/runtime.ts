import type { ToolOutcome } from "../outcome.ts";
import { getRuntime, runtimeFailure, type Runtime } from "../../services/shared/runtime.ts";

/** Runs a handler with the process's runtime, or answers with why it could not be built. */
export async function withRuntime(fn: (rt: Runtime) => Promise<ToolOutcome> | ToolOutcome): Promise<ToolOutcome> {
  const rt = await getRuntime(process.env);
  if (!rt.ok) return { ok: false, error: runtimeFailure(rt.error) };
  return fn(rt.value);
}
