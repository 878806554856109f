/**
 * Generates src/mcp/generated/schemas.json from the tools' defs and their arktype schemas, so the
 * server can list tools without importing arktype (~130 ms and ~35 MiB at startup). Run by
 * `npm run gen`; a test fails when the committed file is stale.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { renderToolSchemas } from "./schemas.ts";

const out = join(import.meta.dir, "..", "src", "mcp", "generated", "schemas.json");
writeFileSync(out, await renderToolSchemas());
process.stderr.write(`wrote ${out}\n`);
