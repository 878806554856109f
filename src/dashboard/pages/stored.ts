/**
 * Reading the JSON a workflow stored (snapshot, step results, test reports) without trusting its
 * shape: each reader answers a value of the asked type or undefined, so a row written by an older
 * or newer orchestrate renders what it can and never throws.
 */

export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function field(value: unknown, key: string): unknown {
  return isObject(value) ? value[key] : undefined;
}

export function text(value: unknown, key: string): string | undefined {
  const v = field(value, key);
  return typeof v === "string" ? v : undefined;
}

export function num(value: unknown, key: string): number | undefined {
  const v = field(value, key);
  return typeof v === "number" && Number.isFinite(v) ? v : undefined;
}

export function strings(value: unknown, key: string): string[] | undefined {
  const v = field(value, key);
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : undefined;
}

export function objects(value: unknown, key: string): Json[] {
  const v = field(value, key);
  return Array.isArray(v) ? v.filter(isObject) : [];
}

/** At most `max` characters of a long text, and a note saying how much was left out. */
export function capped(value: string, max: number, keep: "head" | "tail" = "head"): { shown: string; note?: string } {
  if (value.length <= max) return { shown: value };
  const shown = keep === "head" ? value.slice(0, max) : value.slice(-max);
  const where = keep === "head" ? "first" : "last";
  return { shown, note: `Showing the ${where} ${max.toLocaleString("en")} of ${value.length.toLocaleString("en")} characters.` };
}
