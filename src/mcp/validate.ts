/** The arktype side of validation, loaded with the first call (arktype costs ~130 ms to import). */
import { ArkErrors } from "arktype";

/** Checks a tool's arguments: its input type's value, or one line per failing key (never a throw). */
export function validate<I>(schema: (data: unknown) => I | ArkErrors, args: unknown): { ok: true; value: I } | { ok: false; message: string } {
  const out = schema(args ?? {});
  if (out instanceof ArkErrors) return { ok: false, message: out.summary };
  return { ok: true, value: out };
}
