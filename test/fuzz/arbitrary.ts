/**
 * fast-check arbitraries from a tool's JSON Schema: values that mostly fit (so calls get past
 * validation into the handlers) with a share that does not (wrong types, out of range, extra keys),
 * strings drawn partly from a pool of hostile ones. Fixed seed in CI; STRESS=1 runs many more.
 */
import fc from "fast-check";

export const STRESS = process.env.STRESS === "1";
export const SEED = 20_261_202;

type Schema = Record<string, unknown>;

/** Strings that have broken something before, or plausibly would. */
export function hostileStrings(extra: string[] = []): fc.Arbitrary<string> {
  const pool = [
    "",
    " ",
    "/",
    "..",
    "../../etc/passwd",
    "/dev/fd/0",
    "/proc/self/mem",
    "/etc",
    "~",
    "\u0000",
    "\ud800",
    "__proto__",
    "constructor",
    "toString",
    ".nan",
    "-.inf",
    "1e3",
    "0x1f",
    "yes",
    "~",
    "null",
    "a\nb: c",
    '{"a":1}',
    "%s%n",
    "${HOME}",
    "$(id)",
    "`id`",
    "x".repeat(5000),
    ...extra,
  ];
  return fc.oneof(
    { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
    { weight: 2, arbitrary: fc.constantFrom(...pool) },
    { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 20 }) },
  );
}

export function fromSchema(schema: unknown, strings: fc.Arbitrary<string>, depth = 0): fc.Arbitrary<unknown> {
  const wild = fc.jsonValue({ maxDepth: 2 });
  if (typeof schema !== "object" || schema === null || depth > 6) return wild;
  const s = schema as Schema;
  const fits = fitting(s, strings, depth);
  return fc.oneof({ weight: 6, arbitrary: fits }, { weight: 1, arbitrary: wild });
}

function fitting(s: Schema, strings: fc.Arbitrary<string>, depth: number): fc.Arbitrary<unknown> {
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  if ("const" in s) return fc.constant(s.const);
  const alternatives = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  if (Array.isArray(alternatives) && alternatives.length > 0) return fc.oneof(...alternatives.map((a) => fromSchema(a, strings, depth + 1)));
  switch (s.type) {
    case "string":
      return strings;
    case "integer":
      return fc.oneof(fc.integer({ min: num(s.minimum, -10), max: Math.min(num(s.maximum, 1000), 1000) }), fc.integer());
    case "number":
      return fc.oneof(
        fc.double({ min: num(s.minimum, -10), max: Math.min(num(s.maximum, 1000), 1000), noNaN: true }),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
      );
    case "boolean":
      return fc.boolean();
    case "array":
      return fc.array(fromSchema(s.items, strings, depth + 1), { maxLength: 4 });
    case "object":
      return objectOf(s, strings, depth);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function num(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}

function objectOf(s: Schema, strings: fc.Arbitrary<string>, depth: number): fc.Arbitrary<unknown> {
  const props = (s.properties ?? {}) as Record<string, unknown>;
  const required = new Set((s.required ?? []) as string[]);
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [key, sub] of Object.entries(props)) model[key] = fromSchema(sub, strings, depth + 1);
  const known = fc.record(model, { requiredKeys: [...required].filter((k) => k in model) });
  const extra = fc.dictionary(fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom("__proto__", "constructor")), fc.jsonValue({ maxDepth: 1 }), {
    maxKeys: 2,
  });
  return fc.oneof(
    { weight: 5, arbitrary: known },
    { weight: 1, arbitrary: fc.tuple(known, extra).map(([a, b]) => ({ ...b, ...(a as object) })) },
    { weight: 1, arbitrary: fc.record(model, { requiredKeys: [] }) },
  );
}
