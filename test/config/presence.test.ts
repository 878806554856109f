/** tools/list reads the raw config for its blocks: never blocking on a FIFO, never through a symlink. */
import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { blockAt, readRawConfig } from "../../src/config/presence.ts";

let dir = "";
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("config presence", () => {
  test("a regular file's blocks are seen", () => {
    dir = mkdtempSync(join(tmpdir(), "presence-"));
    writeFileSync(join(dir, "c.yaml"), "consult:\n  review:\n    reviewers: [a]\n");
    expect(blockAt(readRawConfig({ ORCHESTRATE_CONFIG: join(dir, "c.yaml") }), "consult", "review")).toEqual({ reviewers: ["a"] });
  });

  test("a FIFO, a symlink or garbage at the path holds no blocks, and nothing blocks", () => {
    dir = mkdtempSync(join(tmpdir(), "presence-"));
    const fifo = join(dir, "fifo.yaml");
    expect(Bun.spawnSync(["mkfifo", "-m", "600", fifo]).exitCode).toBe(0);
    expect(readRawConfig({ ORCHESTRATE_CONFIG: fifo })).toBeUndefined();
    writeFileSync(join(dir, "real.yaml"), "consult: { review: { reviewers: [a] } }\n");
    symlinkSync(join(dir, "real.yaml"), join(dir, "link.yaml"));
    expect(readRawConfig({ ORCHESTRATE_CONFIG: join(dir, "link.yaml") })).toBeUndefined();
    writeFileSync(join(dir, "bad.yaml"), "{{{ not yaml");
    expect(readRawConfig({ ORCHESTRATE_CONFIG: join(dir, "bad.yaml") })).toBeUndefined();
  });
});
