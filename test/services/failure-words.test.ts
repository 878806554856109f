/** A failed attempt in a person's words (src/services/shared/failure-words.ts): the class, its status, its one fix. */
import { describe, expect, test } from "bun:test";
import { adapters } from "../../src/backends/index.ts";
import { attemptWords, failureWords, httpStatusIn } from "../../src/services/shared/failure-words.ts";

describe("failure words", () => {
  test("auth is 'not signed in' with the backend's own sign-in command", () => {
    expect(failureWords("auth", undefined, adapters.codex)).toEqual({ words: "not signed in", fix: "codex login" });
    expect(failureWords("auth", undefined, adapters.claude).fix).toBe("claude auth login");
  });

  test("capacity reads the provider's status: a 5xx is a provider error, a 429 a rate limit; neither is told to sign in", () => {
    for (const [text, words] of [
      ["unexpected status 500 Internal Server Error: boom", "provider error 500"],
      ['API Error: 529 {"type":"overloaded_error"}', "provider error 529"],
      ["exceeded retry limit, last status: 429 Too Many Requests", "rate-limited"],
      ["You exceeded your current quota", "rate-limited"],
      ["We're currently experiencing high demand", "rate-limited or over capacity"],
    ] as const) {
      const w = failureWords("capacity", text, adapters.codex);
      expect(w.words).toBe(words);
      expect(w.fix ?? "").not.toMatch(/login/);
    }
  });

  test("a port or a count is no status", () => {
    expect(httpStatusIn("url: http://127.0.0.1:5003/v1 Reconnecting... 1/5")).toBeUndefined();
  });

  test("a stored row: the CLI's words as detail; old rows that say only 'unavailable' read from the class", () => {
    expect(attemptWords("auth", "unavailable", adapters.codex)).toEqual({ words: "not signed in", fix: "codex login" });
    expect(attemptWords("capacity", "unexpected status 503 Service Unavailable", adapters.codex)).toMatchObject({
      words: "provider error 503",
      detail: "unexpected status 503 Service Unavailable",
    });
    expect(attemptWords("task_failed", "task_failed (exit 1): boom", adapters.codex).words).toBe("task_failed (exit 1): boom");
  });
});
