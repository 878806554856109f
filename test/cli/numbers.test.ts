/** Numbers on the command line are decimal digits: `--port 1e3` is refused, not port 1000. */
import { afterAll, describe, expect, test } from "bun:test";
import { makeSandbox } from "../../fakes/lib/sandbox.ts";
import { wholeNumber } from "../../src/cli/numbers.ts";
import { runCliInProcess } from "../../fakes/lib/cli-in-process.ts";

const box = makeSandbox();
box.writeConfig("{}\n");
afterAll(() => box.cleanup());

describe("wholeNumber", () => {
  test("digits within the range, and nothing else Number() would take", () => {
    expect(wholeNumber("8765", 0, 65535)).toBe(8765);
    expect(wholeNumber("0", 0, 65535)).toBe(0);
    for (const bad of [
      "1e3",
      "0x50",
      "0b1",
      "0o7",
      "",
      " ",
      " 80",
      "80 ",
      "1.0",
      "1.5",
      "+80",
      "-1",
      "Infinity",
      "NaN",
      "1_000",
      "٨٠",
      "65536",
      "9".repeat(16),
    ])
      expect(wholeNumber(bad, 0, 65535)).toBeUndefined();
  });
});

describe("the commands", () => {
  test("orchestrate dashboard --port 1e3 is a usage error naming the flag", async () => {
    const out = await runCliInProcess(["dashboard", "--port", "1e3"], box.env);
    expect(out.code).not.toBe(0);
    expect(out.stderr).toContain("--port takes a port number in decimal digits");
    expect(out.stdout).toBe("");
  }, 30_000);

  test("orchestrate history list --limit 0x10 and history prune --older-than 1e1 are refused", async () => {
    const list = await runCliInProcess(["history", "list", "--limit", "0x10"], box.env);
    expect(list.code).not.toBe(0);
    expect(list.stderr).toContain("--limit takes a whole number");
    const prune = await runCliInProcess(["history", "prune", "--older-than", "1e1", "--yes"], box.env);
    expect(prune.code).not.toBe(0);
    expect(prune.stderr).toContain("--older-than takes a whole number of days");
  }, 30_000);
});
