/**
 * The layer rules (.dependency-cruiser.cjs), with the real rule file: a small tree with planted
 * violations must have each one reported under its rule's name (read through depcruise's API), and
 * the CLI that `npm run deps` / .ci/run call must fail on it; the real src/ must be clean.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { cruise, type IViolation } from "dependency-cruiser";
import extractDepcruiseOptions from "dependency-cruiser/config-utl/extract-depcruise-options";
import extractTSConfig from "dependency-cruiser/config-utl/extract-ts-config";

const ROOT = resolve(import.meta.dir, "../..");
const CONFIG = join(ROOT, ".dependency-cruiser.cjs");
const DEPCRUISE = join(ROOT, "node_modules/.bin/depcruise");

/** The check exactly as `npm run deps` and .ci/run run it (the `err-long` report: each violation with its rule's comment; exit status = errors). */
function check(cwd: string): { exitCode: number; stdout: string; stderr: string } {
  const run = Bun.spawnSync([DEPCRUISE, "src", "--config", CONFIG, "--output-type", "err-long"], { cwd, stdout: "pipe", stderr: "pipe" });
  return { exitCode: run.exitCode, stdout: run.stdout.toString(), stderr: run.stderr.toString() };
}

/** The same cruise in-process through depcruise's API, to read each violation's rule and ends. */
async function cruiseAt(baseDir: string): Promise<{ violations: IViolation[]; errors: number }> {
  const options = await extractDepcruiseOptions(CONFIG);
  const tsConfig = extractTSConfig(join(baseDir, "tsconfig.json"));
  const { output } = await cruise(["src"], { ...options, baseDir }, {}, { tsConfig });
  if (typeof output === "string") throw new Error(`depcruise reported text, not a result: ${output}`);
  return { violations: output.summary.violations, errors: output.summary.error };
}

const seen = (vs: IViolation[]) => vs.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);

/**
 * A miniature of the layout: every edge either allowed (kept to prove the rules do not over-reach)
 * or planted (named in the comment on the line, by the rule that must catch it).
 */
const PLANTED: Record<string, string> = {
  "src/backends/contract.ts": `export type Backend = "x" | "z";\n`,
  "src/backends/events.ts": `export type AgentEvent = { kind: "text" };\n`,
  "src/backends/fold.ts": `import type { AgentEvent } from "./events.ts";\nexport const fold = (e: AgentEvent[]) => e.length;\n`,
  "src/backends/index.ts": `import { x } from "./x/index.ts";\nimport { z } from "./z/index.ts";\nexport const adapters = { x, z };\n`,
  "src/backends/x/index.ts": [
    `import type { Backend } from "../contract.ts";`, // allowed
    `import { fold } from "../fold.ts";`, // allowed
    `import { parse } from "./parse.ts";`, // allowed: own folder
    `import { route } from "../../services/route/index.ts";`, // backend-folder-is-self-contained, backends-import-nothing-above
    `import { z } from "../z/index.ts";`, // backend-folder-is-self-contained (another backend)
    `import { readFileSync } from "node:fs";`, // backends-do-no-io
    `export const x = { parse, fold, route, z, readFileSync, id: "x" as Backend };`,
  ].join("\n"),
  "src/backends/x/parse.ts": `export const parse = (s: string) => s;\n`,
  "src/backends/z/index.ts": `import type { Backend } from "../contract.ts";\nexport const z = { id: "z" as Backend };\n`,
  "src/config/types.ts": `import type { Backend } from "../backends/contract.ts";\nexport type AgentConfig = { backend: Backend };\n`,
  "src/config/load.ts": `import "./missing.ts";\n`, // not-to-unresolvable
  "src/routing/plan.ts": [
    `import type { AgentConfig } from "../config/types.ts";`, // allowed
    `import { existsSync } from "node:fs";`, // routing-is-pure
    `import { db } from "../store/db.ts";`, // routing-is-pure
    `export const plan = (a: AgentConfig) => existsSync(a.backend) && db;`,
  ].join("\n"),
  "src/store/db.ts": `import { Database } from "bun:sqlite";\nexport const db = Database;\n`, // allowed
  "src/runner/attempt.ts": [
    `import { fold } from "../backends/fold.ts";`, // allowed
    `import { cliTransport } from "./transports/cli.ts";`, // allowed: the attempt owns its transports
    `import { route } from "../services/route/index.ts";`, // runner-not-to-services
    `import type { Database } from "bun:sqlite";`, // only-store-opens-sqlite (type-only counts)
    `export const attempt = (d: Database) => [fold, route, d, cliTransport];`,
  ].join("\n"),
  "src/services/route/index.ts": [
    `import { plan } from "../../routing/plan.ts";`, // allowed
    `import { db } from "../../store/db.ts";`, // allowed
    `import type { Server } from "../../mcp/server.ts";`, // services-not-to-front-ends
    `import type { Jobs } from "../shared/jobs.ts";`, // no-circular (with shared/jobs.ts → route/index.ts); allowed by the feature rules
    `import { turn } from "../answer/turn.ts";`, // allowed: a shared folder
    `import { plan as reviewPlan } from "../review/plan.ts";`, // features-meet-at-their-entry (another feature's internals)
    `import { review } from "../review/index.ts";`, // allowed: another feature's entry
    `import { old } from "../flat.ts";`, // services-are-in-folders
    `export const route = (s: Server, j: Jobs) => [plan, db, s, j, turn, reviewPlan, review, old];`,
  ].join("\n"),
  "src/services/shared/jobs.ts": `import type { route } from "../route/index.ts";\nexport type Jobs = typeof route;\n`, // no-circular, shared-folders-are-below-features
  "src/services/answer/turn.ts": `export const turn = 1;\n`,
  "src/services/review/plan.ts": `export const plan = 1;\n`,
  "src/services/review/index.ts": `import { plan } from "./plan.ts";\nexport const review = plan;\n`, // allowed: own folder
  "src/services/flat.ts": `export const old = 1;\n`,
  "src/services/smoke/index.ts": [
    `import { runProcess } from "../../process/spawn.ts";`, // delegates-start-in-a-transport
    `import { cliTransport } from "../../runner/transports/cli.ts";`, // the-attempt-owns-the-transports
    `import { httpChannel } from "../../runner/transports/http.ts";`, // allowed: a request, not a delegate
    `export const smoke = [runProcess, cliTransport, httpChannel];`,
  ].join("\n"),
  "src/process/spawn.ts": `export const runProcess = 1;\n`,
  "src/runner/transports/cli.ts": `import { runProcess } from "../../process/spawn.ts";\nexport const cliTransport = runProcess;\n`, // allowed
  "src/runner/transports/http.ts": `export const httpChannel = 1;\n`,
  "src/mcp/server.ts": `import { runCommand } from "../cli/run.ts";\nexport type Server = typeof runCommand;\n`, // cli-is-the-top
  "src/cli/run.ts": `import { wizard } from "../setup/wizard.ts";\nexport const runCommand = wizard;\n`, // allowed
  "src/setup/wizard.ts": `import { checks } from "../doctor/checks.ts";\nexport const wizard = checks;\nexport const shared = 1;\n`, // allowed: setup → doctor
  "src/doctor/checks.ts": `import { shared } from "../setup/wizard.ts";\nexport const checks = shared;\n`, // doctor-below-setup, no-circular, no-circular-folders
  "src/log.ts": `import { ok } from "./result.ts";\nimport { db } from "./store/db.ts";\nexport const log = [ok, db];\n`, // leaves-import-nothing (result.ts: allowed, leaf → leaf)
  "src/result.ts": `export const ok = true;\n`,
  "src/main.ts": `import { runCommand } from "./cli/run.ts";\nrunCommand;\n`, // allowed
};

const EXPECTED = [
  "backend-folder-is-self-contained: src/backends/x/index.ts → src/services/route/index.ts",
  "backends-import-nothing-above: src/backends/x/index.ts → src/services/route/index.ts",
  "backend-folder-is-self-contained: src/backends/x/index.ts → src/backends/z/index.ts",
  "backends-do-no-io: src/backends/x/index.ts → fs",
  "not-to-unresolvable: src/config/load.ts → ./missing.ts",
  "routing-is-pure: src/routing/plan.ts → fs",
  "routing-is-pure: src/routing/plan.ts → src/store/db.ts",
  "runner-not-to-services: src/runner/attempt.ts → src/services/route/index.ts",
  "only-store-opens-sqlite: src/runner/attempt.ts → bun:sqlite",
  "services-not-to-front-ends: src/services/route/index.ts → src/mcp/server.ts",
  "features-meet-at-their-entry: src/services/route/index.ts → src/services/review/plan.ts",
  "services-are-in-folders: src/services/route/index.ts → src/services/flat.ts",
  "shared-folders-are-below-features: src/services/shared/jobs.ts → src/services/route/index.ts",
  "delegates-start-in-a-transport: src/services/smoke/index.ts → src/process/spawn.ts",
  "the-attempt-owns-the-transports: src/services/smoke/index.ts → src/runner/transports/cli.ts",
  "cli-is-the-top: src/mcp/server.ts → src/cli/run.ts",
  "doctor-below-setup: src/doctor/checks.ts → src/setup/wizard.ts",
  "leaves-import-nothing: src/log.ts → src/store/db.ts",
];

/** Edges of the miniature that the rules must leave alone. */
const ALLOWED = [
  "src/backends/x/index.ts → src/backends/contract.ts",
  "src/backends/x/index.ts → src/backends/fold.ts",
  "src/backends/x/index.ts → src/backends/x/parse.ts",
  "src/config/types.ts → src/backends/contract.ts",
  "src/routing/plan.ts → src/config/types.ts",
  "src/store/db.ts → bun:sqlite",
  "src/runner/attempt.ts → src/backends/fold.ts",
  "src/services/route/index.ts → src/routing/plan.ts",
  "src/services/route/index.ts → src/store/db.ts",
  "src/services/route/index.ts → src/services/answer/turn.ts",
  "src/services/route/index.ts → src/services/review/index.ts",
  "src/services/review/index.ts → src/services/review/plan.ts",
  "src/services/smoke/index.ts → src/runner/transports/http.ts",
  "src/runner/attempt.ts → src/runner/transports/cli.ts",
  "src/runner/transports/cli.ts → src/process/spawn.ts",
  "src/cli/run.ts → src/setup/wizard.ts",
  "src/main.ts → src/cli/run.ts",
];

const tmp = mkdtempSync(join(tmpdir(), "orch-deps-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("layer rules", () => {
  test("a planted violation of each rule is reported under the rule's name, and the check fails", async () => {
    for (const [path, text] of Object.entries(PLANTED)) {
      mkdirSync(dirname(join(tmp, path)), { recursive: true });
      writeFileSync(join(tmp, path), text);
    }
    copyFileSync(join(ROOT, "tsconfig.json"), join(tmp, "tsconfig.json"));

    const { violations, errors } = await cruiseAt(tmp);
    const found = seen(violations);
    for (const line of EXPECTED) expect(found).toContain(line);
    for (const edge of ALLOWED) expect(found.filter((line) => line.endsWith(`: ${edge}`))).toEqual([]);
    // A circle is reported once, from one of its edges; type-only edges close it all the same.
    const circle = (...files: string[]) =>
      violations.some((v) => v.rule.name === "no-circular" && files.every((f) => v.from === f || (v.cycle ?? []).some((c) => c.name === f)));
    expect(circle("src/services/route/index.ts", "src/services/shared/jobs.ts")).toBe(true);
    expect(circle("src/doctor/checks.ts", "src/setup/wizard.ts")).toBe(true);
    // setup ⇄ doctor is a folder circle as well as a module one.
    expect(violations.some((v) => v.rule.name === "no-circular-folders" && [v.from, v.to].sort().join(" ") === "src/doctor src/setup")).toBe(true);
    expect(errors).toBe(violations.length);

    // What CI sees: a failing exit status and each violation under its rule's name.
    const ci = check(tmp);
    expect(ci.exitCode).toBe(errors);
    expect(ci.stdout).toContain("error backend-folder-is-self-contained: src/backends/x/index.ts → src/services/route/index.ts");
    expect(ci.stdout).toContain("error routing-is-pure: src/routing/plan.ts → fs");
  });

  test("the real src/ keeps every rule", async () => {
    const { violations } = await cruiseAt(ROOT);
    expect(seen(violations)).toEqual([]);
  });
});
