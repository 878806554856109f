/**
 * Diagnostic (not in the summary table unless BENCH_IMPORTS=1): what each module on the startup path
 * costs in a compiled binary. Each probe is the floor (bench/fixtures/floor.ts) plus one import,
 * compiled like the product (--minify --bytecode --format=esm) and timed spawn → tools/list reply,
 * interleaved with the bare floor. The difference is that module's price at every client start.
 *
 *   bun bench/import-cost.ts            all probes
 *   bun bench/import-cost.ts sdk-types  only probes whose name contains "sdk-types"
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BUN, floorBinary, interleave, iterations, median, mib, ms, REPO_ROOT, rssOf, say, section, sh, WORK, type Row } from "./helpers.ts";
import { measureStartup, type StartupSample } from "./jsonrpc.ts";

const SRC = join(REPO_ROOT, "src");
const FLOOR = join(REPO_ROOT, "bench", "fixtures", "floor.ts");

/** name → import statements placed before the floor's own code. */
const PROBES: Record<string, string> = {
  "sdk-types (zod schemas)": `import * as m from "@modelcontextprotocol/sdk/types.js";`,
  "sdk-server/index": `import * as m from "@modelcontextprotocol/sdk/server/index.js";`,
  "sdk-server/stdio": `import * as m from "@modelcontextprotocol/sdk/server/stdio.js";`,
  "sdk-tasks in-memory store": `import * as m from "@modelcontextprotocol/sdk/experimental/tasks/stores/in-memory.js";`,
  "zod/v4": `import * as m from "zod/v4";`,
  "consola (src/log.ts)": `import * as m from "${SRC}/log.ts";`,
  citty: `import * as m from "citty";`,
  "tool defs (src/mcp/tools/index.ts)": `import * as m from "${SRC}/mcp/tools/index.ts";`,
  "src/mcp/server.ts": `import * as m from "${SRC}/mcp/server.ts";`,
  "src/cli/serve.ts (all of startup)": `import * as m from "${SRC}/cli/serve.ts";`,
  arktype: `import * as m from "arktype";`,
  "bundle size only: arktype behind an untaken dynamic import": `const m = process.env.NEVER_SET_X ? await import("arktype") : {};`,
};

export async function run(): Promise<Row[]> {
  section("import cost: floor + one import, compiled (spawn → tools/list, RSS)");
  const filter = process.argv[2];
  const probes = Object.entries(PROBES).filter(([name]) => !filter || name.includes(filter));
  const dir = join(WORK, "imports");
  mkdirSync(dir, { recursive: true });
  const env = { PATH: "/usr/bin:/bin", HOME: dir };
  const sides: Record<string, () => Promise<StartupSample>> = { floor: () => measureStartup([floorBinary()], env, dir, rssOf) };
  for (const [i, [name, imports]] of probes.entries()) {
    const bin = compileProbe(dir, `probe-${i}`, imports);
    sides[name] = () => measureStartup([bin], env, dir, rssOf);
  }
  const samples = await interleave(sides, iterations(10), 1);
  const t = (k: string): number => median((samples[k] ?? []).map((s) => s.toolsListMs));
  const r = (k: string): number => median((samples[k] ?? []).map((s) => s.rssBytes));
  say(`floor: ${ms(t("floor"))} ${mib(r("floor"))}`);
  const rows: Row[] = [];
  for (const [name] of probes) {
    say(`${name.padEnd(60)} +${ms(t(name) - t("floor")).padStart(9)}  +${mib(r(name) - r("floor")).padStart(9)}`);
    rows.push({
      benchmark: `import cost: ${name}`,
      value: `+${ms(t(name) - t("floor"))} / +${mib(r(name) - r("floor"))}`,
      reference: `floor ${ms(t("floor"))} / ${mib(r("floor"))}`,
      ratio: "—",
      target: "—",
    });
  }
  return rows;
}

function compileProbe(dir: string, name: string, imports: string): string {
  const entry = join(dir, `${name}.ts`);
  // Keeping a reference stops --minify from dropping the import as unused.
  writeFileSync(entry, `${imports}\n(globalThis as Record<string, unknown>).__probe = m;\nimport "${FLOOR}";\n`);
  const out = join(dir, name);
  sh([BUN, "build", entry, "--compile", "--minify", "--bytecode", "--format=esm", "--outfile", out]);
  return out;
}

if (import.meta.main) await run();
