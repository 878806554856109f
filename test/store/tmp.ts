/** Temporary directories for store tests, removed when the test file ends. */
import { afterAll } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore, type OpenStoreOptions, type Store } from "../../src/store/db.ts";

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

export function tmpDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "orch-store-"));
  made.push(dir);
  return dir;
}

/** A store path inside a fresh tmp dir, in a not-yet-existing `orchestrate/` subfolder. */
export function tmpStorePath(): string {
  return join(tmpDir(), "state", "orchestrate", "orchestrate.db");
}

export function mustOpen(path: string, opts: OpenStoreOptions = {}): Store {
  const opened = openStore(path, opts);
  if (!opened.ok) throw new Error(`openStore failed: ${opened.error.code}: ${opened.error.message}`);
  return opened.value;
}

/** Every byte SQLite may hold for this database: main file plus WAL. */
export function rawBytes(path: string): string {
  return [path, `${path}-wal`]
    .filter((p) => existsSync(p))
    .map((p) => readFileSync(p).toString("latin1"))
    .join("");
}

/** Strings the redactor must catch, assembled at run time so this file holds no token literal. */
export const SECRETS = {
  anthropic: ["sk", "ant", "api03", "Xq7vR2mK9pL4tW8zB3nC6dF1gH5jK0sA2eY7uI9oP3lM6kN8bV1cX4zQ-_w9eT2rY5uAAAA"].join("-"),
  github: "ghp" + "_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8",
};
