import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { codexAdapter } from "../../src/backends/codex/index.ts";
import { ActivityLine, describeEvent } from "../../src/runner/activity.ts";

const FIXTURES = join(import.meta.dir, "..", "fixtures", "codex");

describe("progress wording", () => {
  test("a codex warning item is shown as a warning, not as retrying", () => {
    const stdout = readFileSync(join(FIXTURES, "codex-fake-custom-provider-basic.stdout"), "utf8");
    const texts = stdout
      .split("\n")
      .flatMap((line) => codexAdapter.parse(line))
      .map(describeEvent)
      .filter((t) => t !== undefined);
    expect(texts[0]).toStartWith("warning: Model metadata for `fake-model` not found.");
    expect(texts.some((t) => t.startsWith("retrying"))).toBe(false);
  });

  test("a real codex retry notice still says retrying", () => {
    const line = JSON.stringify({ type: "error", message: "Reconnecting... 2/5 (stream disconnected before completion)" });
    const line2 = new ActivityLine().see(codexAdapter.parse(line)[0]!, () => ({}));
    expect(line2).toBe("retrying: Reconnecting... 2/5 (stream disconnected before completion)");
  });
});
