/** Consult's sources are seed 002's {title, locator, source_type} objects (issue 23). */
import { describe, expect, test } from "bun:test";
import { withWebSources } from "../../src/services/answer/web.ts";

describe("consult sources", () => {
  test("a cited name is of the call's mode, located internal; a cited URL is a web source", () => {
    expect(withWebSources(["model", "https://example.com/a"], [], "model")).toEqual([
      { title: "model", locator: "internal", source_type: "model" },
      { title: "https://example.com/a", locator: "https://example.com/a", source_type: "web" },
    ]);
    expect(withWebSources(["the brief"], [], "document")).toEqual([{ title: "the brief", locator: "internal", source_type: "document" }]);
  });

  test("web calls from the stream follow what was cited, a fetched URL the model cited is not repeated", () => {
    const calls = [
      { kind: "fetch" as const, what: "https://example.com/a" },
      { kind: "search" as const, what: "pong" },
    ];
    expect(withWebSources(["https://example.com/a"], calls, "web")).toEqual([
      { title: "https://example.com/a", locator: "https://example.com/a", source_type: "web" },
      { title: "web search: pong", locator: "pong", source_type: "web" },
    ]);
  });
});
