/**
 * Property-based fuzz of the config path the server loads through: parseConfigText
 * (src/config/parse.ts) then validateConfigObject (src/config/validate.ts). Neither throws on any
 * text; every refusal is lines of text; what renderYaml writes reads back as the same data; and a
 * mapping with a repeated key is always refused, naming both lines. Fixed seed; STRESS=1 runs more.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { parseConfigText, type FileFormat } from "../../src/config/parse.ts";
import { validateConfigObject } from "../../src/config/validate.ts";
import { renderYaml } from "../../src/config/write.ts";
import { hostileStrings, SEED, STRESS } from "./arbitrary.ts";

const RUNS = STRESS ? 5000 : 100;
const KEYS = [
  "agents",
  "tiers",
  "consult",
  "review",
  "ask",
  "roots",
  "store",
  "backend",
  "model",
  "sandbox",
  "limits",
  "maxTurns",
  "env",
  "enabled",
  "heavy",
  "light",
  "standard",
  "reviewers",
  "capabilities",
  "deployments",
];

/** Config-shaped data: known keys (so validation goes deep) and hostile scalars. */
const scalar = fc.oneof(hostileStrings(), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null));
const key = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...KEYS) }, { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 10 }) });
const { tree } = fc.letrec<{ tree: unknown }>((tie) => ({
  tree: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    scalar,
    fc.array(tie("tree"), { maxLength: 3 }),
    fc.dictionary(key, tie("tree"), { maxKeys: 4 }),
  ),
}));
const config = fc.dictionary(key, tree, { maxKeys: 6 });

function wellFormed(value: unknown): boolean {
  if (typeof value === "string") return value.isWellFormed();
  if (Array.isArray(value)) return value.every(wellFormed);
  if (value && typeof value === "object") return Object.entries(value).every(([k, v]) => k.isWellFormed() && wellFormed(v));
  return true;
}

function parseAndValidate(text: string, format: FileFormat): void {
  const parsed = parseConfigText(text, format, "/fuzz/config");
  if (!parsed.ok) {
    for (const line of parsed.errors) expect(typeof line).toBe("string");
    return;
  }
  const validated = validateConfigObject(parsed.value, { path: "/fuzz/config", format }, {});
  if (!validated.ok) for (const line of validated.errors) expect(typeof line).toBe("string");
}

describe("fuzz: the config parser and validator", () => {
  test(`${RUNS} arbitrary texts, YAML and JSON: no throw, refusals are text`, () => {
    const text = fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.string({ unit: "binary", maxLength: 100 }),
      config.map((c) => renderYaml(c)),
      config.map((c) => JSON.stringify(c)),
    );
    fc.assert(
      fc.property(text, fc.constantFrom<FileFormat>("yaml", "json"), (t, format) => {
        parseAndValidate(t, format);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  // A lone surrogate cannot reach a file as UTF-8 at all; writeConfigAtomic's read-back refuses it.
  test(`${RUNS} config-shaped objects: what renderYaml writes parses back to the same data, and validates without throwing`, () => {
    fc.assert(
      fc.property(config.filter(wellFormed), (c) => {
        const back = parseConfigText(renderYaml(c), "yaml", "/fuzz/config.yaml");
        if (!back.ok) throw new Error(`renderYaml wrote what does not parse back: ${back.errors.join("; ")}`);
        expect(back.value).toEqual(JSON.parse(JSON.stringify(c)));
        parseAndValidate(renderYaml(c), "yaml");
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  test(`${RUNS} mappings with one key repeated: always refused, with both lines`, () => {
    const pairs = fc.uniqueArray(fc.tuple(fc.stringMatching(/^[a-z][a-z0-9_]{0,8}$/), scalar), { minLength: 1, maxLength: 6, selector: ([k]) => k });
    fc.assert(
      fc.property(pairs, fc.nat(), fc.constantFrom<FileFormat>("yaml", "json"), (entries, pick, format) => {
        const [dupKey, dupValue] = entries[pick % entries.length] ?? ["k", 1];
        const all = [...entries, [dupKey, dupValue] as const];
        const text =
          format === "json"
            ? `{\n${all.map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(",\n")}\n}\n`
            : all.map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join("\n");
        const parsed = parseConfigText(text, format, "/fuzz/config");
        expect(parsed.ok).toBe(false);
        if (!parsed.ok) expect(parsed.errors.join("\n")).toContain(`the key ${JSON.stringify(dupKey)} appears 2 times`);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
