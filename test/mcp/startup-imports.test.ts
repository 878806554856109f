/**
 * The startup path (mcp/front.ts answering initialize and tools/list) statically loads no schema
 * library, no SDK, no handler and no service: every client pays for it at every start. Bundled the
 * way build/compile.ts bundles (--splitting), then the entry's static import closure is read.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { REPO_ROOT } from "../../fakes/lib/sandbox.ts";

const STATIC_IMPORT = /^import\s*(?:\{[^}]*\}|\*\s+as\s+\w+|\w+)?\s*(?:from\s*)?"(\.\/[^"]+)"/gm;
// A node_modules reached through a symlink (a git worktree sharing one) is marked by its real
// path, `../../main/node_modules/…`: read as `node_modules/…` all the same.
const MODULE_MARK = /^\/\/ (?:(?:\.\.\/)+[^/\s]+\/)?((?:src|node_modules)\/\S+)$/gm;

/** Source modules whose code runs when the entry loads (dynamic imports excluded). */
async function staticModules(entry: string): Promise<string[]> {
  const built = await Bun.build({ entrypoints: [entry], target: "bun", splitting: true, format: "esm" });
  expect(built.success).toBe(true);
  const chunks = new Map(built.outputs.map((o) => [o.path, o]));
  const seen = new Set<string>();
  const modules: string[] = [];
  const visit = async (path: string) => {
    if (seen.has(path)) return;
    seen.add(path);
    const text = (await chunks.get(path)?.text()) ?? "";
    for (const m of text.matchAll(MODULE_MARK)) if (m[1]) modules.push(m[1]);
    for (const m of text.matchAll(STATIC_IMPORT)) if (m[1]) await visit(m[1]);
  };
  const first = built.outputs.find((o) => o.kind === "entry-point");
  if (first) await visit(first.path);
  return modules;
}

/**
 * Finding and reading the config file for its blocks (which groups tools/list shows): node:fs and
 * paths (with the working-directory rule, cwd-config.ts, and the seeds' shapes, seed-shape.ts); and
 * the defaults (plain constants), so ask advertises the limits that will be enforced.
 */
const LIGHT_CONFIG = ["src/config/presence.ts", "src/config/paths.ts", "src/config/defaults.ts", "src/config/cwd-config.ts", "src/config/seed-shape.ts"];

describe("startup path", () => {
  test("front.ts loads the tool defs and generated schemas, and nothing heavy", async () => {
    const modules = await staticModules(join(REPO_ROOT, "src", "mcp", "front.ts"));
    // Not vacuous: the defs and their wire form are there.
    expect(modules).toContain("src/mcp/tools/index.ts");
    expect(modules).toContain("src/mcp/tools/core/def.ts");
    expect(modules).toContain("src/mcp/generated/schemas.json");
    const heavy = modules.filter(
      (m) =>
        /^node_modules\/(arktype|@ark|@modelcontextprotocol|zod|@pydantic)\//.test(m) ||
        (/^src\/(services|config|store|runner|setup)\//.test(m) && !LIGHT_CONFIG.includes(m)) ||
        /^src\/mcp\/(server|tasks|prompts)\.ts$/.test(m) ||
        /^src\/mcp\/tools\/[^/]+\/(handler|schema)\.ts$/.test(m) ||
        /^src\/mcp\/jobs\//.test(m),
    );
    expect(heavy).toEqual([]);
  });

  test("the price catalog loads only when a price is needed: no static import reaches it", async () => {
    // src/services/shared/price.ts imports it with a dynamic import (docs/cost.md); the route, the
    // review plan and the tools' formatters reach price.ts statically.
    for (const entry of ["src/services/shared/price.ts", "src/services/route/index.ts", "src/mcp/tools/core/handler.ts"]) {
      const modules = await staticModules(join(REPO_ROOT, entry));
      expect(modules).toContain("src/services/shared/price.ts");
      expect(modules.filter((m) => m.startsWith("node_modules/@pydantic/"))).toEqual([]);
    }
  });
});
