/** Tolerant JSON readers shared by the adapters' line parsers: garbage yields undefined, never a throw. */
export type Json = Record<string, unknown>;

/** One stdout line → an object, or undefined for anything else (plain text, arrays, truncated JSON). */
export function parseObject(line: string): Json | undefined {
  const trimmed = line.trim();
  if (!trimmed.startsWith("{")) return undefined;
  try {
    return asObject(JSON.parse(trimmed));
  } catch {
    return undefined;
  }
}

export function asObject(value: unknown): Json | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
}

export function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}
