/** Hints a shell prints name shell commands (src/cli/shell-hints.ts), and a typo gets the nearest valid value. */
import { describe, expect, test } from "bun:test";
import { didYouMean, shellHint, shellWords } from "../../src/cli/shell-hints.ts";
import { TIERS } from "../../src/config/types.ts";
import { ERROR_CODES as ERROR_HINTS } from "../../src/errors.ts";

describe("shell-first hints", () => {
  test("MCP tool and argument names become the shell's commands and flags", () => {
    expect(shellWords(ERROR_HINTS.no_candidates)).toStartWith("Run `orchestrate run --dry-run --tier T` to see why");
    expect(shellWords(ERROR_HINTS.review_incomplete)).toContain("`orchestrate review --retry REVIEW_ID`");
    expect(shellWords(ERROR_HINTS.unknown_agent)).toBe("Use an agent id that `orchestrate agents` shows.");
    expect(shellWords(ERROR_HINTS.unknown_consultation)).toBe("Start a new consultation without --consultation-id.");
    expect(shellWords(ERROR_HINTS.timeout)).toBe("Retry with a larger --timeout.");
    for (const hint of Object.values(ERROR_HINTS).map(shellWords)) expect(hint).not.toMatch(/router_dry_run|review_retry|list_agents|consultation_id/);
  });

  test("host_unknown names --host first", () => {
    expect(shellHint("host_unknown", ERROR_HINTS.host_unknown)).toStartWith("Pass --host RUNTIME");
  });

  test("a typo'd tier or capability gets the nearest valid one; a far one gets none", () => {
    expect(didYouMean("heavey", TIERS)).toBe(" Did you mean heavy?");
    expect(didYouMean("viison", ["coding", "vision"])).toBe(" Did you mean vision?");
    expect(didYouMean("zzzzzz", ["coding", "vision"])).toBe("");
  });
});
