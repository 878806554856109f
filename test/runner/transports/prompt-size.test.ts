/**
 * A prompt that cannot travel the way a CLI takes it is refused before anything starts, as
 * prompt_too_large — never spawned into E2BIG, which would read as "not installed" (a silent
 * fallback and a cooldown for a CLI that is fine).
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { grokAdapter } from "../../../src/backends/grok/index.ts";
import { argvFits, MAX_ARG_STRLEN } from "../../../src/process/argv-limit.ts";
import { cliTransport } from "../../../src/runner/transports/cli.ts";
import { agent } from "../../helpers/config.ts";

const FAKES = join(import.meta.dir, "..", "..", "..", "fakes");
const BIN = join(import.meta.dir, "..", "..", "..", "node_modules", ".bin");
const env = { PATH: `${FAKES}:${BIN}:/usr/bin:/bin`, HOME: mkdtempSync(join(tmpdir(), "prompt-size-")), GROK_API_KEY: "dummy" };

describe("argv limits (Linux execve)", () => {
  test("one argument may be 128 KiB including its NUL; bytes, not characters", () => {
    expect(argvFits(["x".repeat(MAX_ARG_STRLEN - 1)], {}).ok).toBe(true);
    expect(argvFits(["x".repeat(MAX_ARG_STRLEN)], {}).ok).toBe(false);
    // 50 000 three-byte characters are 150 000 bytes.
    expect(argvFits(["€".repeat(50_000)], {}).ok).toBe(false);
    expect(
      argvFits(
        Array.from({ length: 40 }, () => "y".repeat(60_000)),
        {},
      ),
    ).toMatchObject({ ok: false, why: expect.stringContaining("ARG_MAX") });
  });
});

describe("cli transport: a prompt that does not fit is refused unspawned", () => {
  const prepare = (prompt: string) =>
    cliTransport.prepare({ agent: agent("g", "grok"), adapter: grokAdapter, request: { mode: "route", prompt, cwd: tmpdir() }, env });

  test("300 KiB to community grok (argv only): prompt_too_large, named, with the sizes", async () => {
    const refused = await prepare("p".repeat(300 * 1024));
    expect(refused).toMatchObject({ ok: false, failure: "prompt_too_large" });
    if (refused.ok) throw new Error("prepared");
    expect(refused.reason).toContain("grok takes its prompt only as a command-line argument");
    expect(refused.reason).toContain("300 KiB");
    expect(refused.reason).toContain("nothing was started");
  });

  test("just under the limit still goes", async () => {
    expect((await prepare("p".repeat(120 * 1024))).ok).toBe(true);
  });
});
