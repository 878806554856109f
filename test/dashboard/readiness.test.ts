/**
 * The overview's CLI cell reads the doctor: a help probe that timed out (issue 22: the dashboard
 * showed the same false red "problem" as check for agents that had just answered) is a grey
 * "unchecked", and only a problem that blocks the agent is red.
 */
import { expect, test } from "bun:test";
import type { CliReport } from "../../src/doctor/checks.ts";
import { readiness } from "../../src/dashboard/pages/overview.ts";

const cli = (problems: CliReport["problems"], extra: Partial<CliReport> = {}): CliReport => ({
  backend: "opencode",
  command: "opencode",
  path: "/usr/bin/opencode",
  helpCommand: "opencode run --help",
  missingFlags: [],
  readiness: "ready",
  problems,
  usedByConfig: true,
  ...extra,
});

test("a timed-out help is unchecked, not a problem; a missing flag or a sign-out is red", () => {
  const timedOut = String(
    readiness(
      cli(
        [
          {
            problem: "`opencode run --help` timed out after 8 s, and again after 16 s, so its flags are unchecked (not missing)",
            hint: "run it again",
            blocks: false,
          },
        ],
        { flagsUnchecked: "timed out after 8 s, and again after 16 s" },
      ),
      false,
    ),
  );
  expect(timedOut).toContain("unchecked");
  expect(timedOut).not.toContain("problem<");
  expect(timedOut).not.toContain("failed");
  expect(String(readiness(cli([{ problem: "does not list --format", hint: "upgrade", blocks: true }]), false))).toContain("failed");
  expect(
    String(readiness(cli([{ problem: "opencode is installed but not signed in", hint: "sign in", blocks: true }], { readiness: "not_ready" }), false)),
  ).toContain("not signed in");
  expect(String(readiness(cli([]), false))).toContain("ready");
});
