import { type, type Type } from "arktype";
import type { LoadedTool } from "../define.ts";

/** Wraps an arktype type as a tool validator: one line per failing key, never a throw. */
export function validatorFor(schema: Type): LoadedTool["validate"] {
  return (input) => {
    const out = schema(input ?? {});
    if (out instanceof type.errors) return { ok: false, message: out.summary };
    return { ok: true, value: out as Record<string, unknown> };
  };
}
