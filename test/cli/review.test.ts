/** `orchestrate review` from a shell: the plan printed, the person's yes at a real terminal, the findings printed. */
import { afterEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeSandbox, type Sandbox } from "../../fakes/lib/sandbox.ts";
import { reviewConfig, reviewerRuns, storeRows, THREE } from "../e2e/review-helpers.ts";
import { runCliInProcess } from "../../fakes/lib/cli-in-process.ts";
import { spawnPty, type PtySession } from "../setup/pty.ts";

let box: Sandbox | undefined;
let term: PtySession | undefined;

afterEach(() => {
  term?.kill();
  term = undefined;
  box?.cleanup();
  box = undefined;
});

function world(): { box: Sandbox; file: string } {
  box = makeSandbox();
  box.writeConfig(reviewConfig(THREE, { reviewers: ["cl"], deep_reviewers: ["cl", "oc"] }));
  const file = join(box.repo, "cache.ts");
  writeFileSync(file, "export const cache = new Map();\nexport function put(k: string, v: string) { cache.set(k, v); }\n");
  return { box, file };
}

describe("orchestrate review", () => {
  test("without a terminal the plan is printed and nothing is sent", async () => {
    const { box, file } = world();
    const out = await runCliInProcess(["review", "--goal", "Is put safe?", `${file}:1-2`], box.env, "y\n");
    expect(out.stderr).toContain("nothing has been sent");
    expect(out.stderr).toContain("cl (claude · claude-opus-4-6)");
    expect(out.stderr).toContain("needs a terminal");
    expect(out.code).not.toBe(0);
    expect(reviewerRuns(box)).toEqual([]);
  }, 60_000);

  test("at a terminal: plan, the person's own findings in deep mode, yes, then the findings; approval recorded as terminal", async () => {
    const { box, file } = world();
    term = spawnPty(["review", "--deep", "--goal", "Is put safe?", file], box.env);
    await term.expect("nothing has been sent");
    await term.expect("record your own findings first");
    await term.expect("Finding 1");
    await term.type("important: put has no lock");
    await term.expect("Finding 2");
    term.send("\r");
    await term.expect("Send this to 2 reviewer(s)?");
    term.send("y\r");
    await term.expect("awaiting_synthesis");
    expect(await term.exited).toBe(0);
    expect(term.screen()).toContain("FINDING-FROM-FAKE");
    expect(term.screen()).toContain("H1 [important] host");
    expect(reviewerRuns(box)).toHaveLength(2);
    expect(storeRows<{ approval: string }>(box, "SELECT approval FROM reviews")).toEqual([{ approval: "terminal" }]);
  }, 60_000);
});
