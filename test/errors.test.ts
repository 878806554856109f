/** The closed set of error codes (issue 12 §8): one file, a hint each, an enum in every output schema. */
import { describe, expect, test } from "bun:test";
import { ERROR_CODE_LIST, ERROR_CODES } from "../src/errors.ts";
import { failureReply } from "../src/mcp/outcome.ts";
import schemas from "../src/mcp/generated/schemas.json" with { type: "json" };
import type { Failure } from "../src/result.ts";

describe("error codes", () => {
  test("every code is snake_case and has a what-to-do-next hint", () => {
    for (const code of ERROR_CODE_LIST) {
      expect(code).toMatch(/^[a-z]+(_[a-z0-9]+)*$/);
      expect(ERROR_CODES[code].length).toBeGreaterThan(10);
    }
  });

  test("every tool's output schema advertises exactly the closed set as error.code's enum", () => {
    type ErrorSchema = { properties?: { code?: { enum?: string[] } }; anyOf?: ErrorSchema[] };
    for (const [name, entry] of Object.entries(schemas as Record<string, { outputSchema?: { properties?: { error?: ErrorSchema } } }>)) {
      // ask's error is `{code, message} | null` (seed 002's envelope): the object arm carries the enum.
      const error = entry.outputSchema?.properties?.error;
      const codes = (error?.anyOf?.find((arm) => arm.properties) ?? error)?.properties?.code?.enum;
      expect({ name, codes: [...(codes ?? [])].sort() }).toEqual({ name, codes: [...ERROR_CODE_LIST].sort() });
    }
  });

  test("a code outside the set never goes out: it becomes internal_error naming it", () => {
    const stray = { code: "made_up", message: "x" } as unknown as Failure;
    const reply = failureReply(stray);
    expect((reply.structuredContent.error as Failure).code).toBe("internal_error");
    expect((reply.structuredContent.error as Failure).message).toContain("made_up");
  });

  test("a failure without its own hint carries its code's", () => {
    const reply = failureReply({ code: "no_candidates", message: "none" });
    expect((reply.structuredContent.error as Failure).hint).toBe(ERROR_CODES.no_candidates);
  });
});
