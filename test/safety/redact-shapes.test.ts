/**
 * Shapes the scrubber missed (issue 21 item 10), each from its real format: the secret is gone
 * from redact()'s output, findSecrets() points at it, and a second pass changes nothing.
 */
import { describe, expect, test } from "bun:test";
import { findSecrets, redact } from "../../src/safety/redact.ts";
import { secretGenerator } from "../helpers/fake-secrets.ts";
import { SHAPES } from "../helpers/credential-shapes.ts";

const rand = secretGenerator(2111);

/** A token a CLI coloured half of: the escape sits inside it. */
const ANSI_SPLIT = { head: "ghp_", tail: rand(36) };

describe("redact: the shapes issue 21 found missing", () => {
  for (const c of SHAPES) {
    test(c.name, () => {
      const text = c.text.replace("$", c.secret);
      const out = redact(text);
      expect(out).not.toContain(c.secret);
      expect(out).toContain("[REDACTED:");
      expect(redact(out)).toBe(out);
      const spans = findSecrets(text);
      expect(spans.some((s) => text.slice(s.start, s.end).includes(c.secret.slice(0, 12)))).toBe(true);
    });
  }

  test("a token split by an ANSI escape", () => {
    const text = `token ${ANSI_SPLIT.head}\x1b[1m${ANSI_SPLIT.tail.slice(0, 10)}\x1b[0m${ANSI_SPLIT.tail.slice(10)} done`;
    const out = redact(text);
    expect(out).toBe("token [REDACTED:github] done");
    const [span] = findSecrets(text);
    expect(text.slice(span?.start, span?.end)).toContain(ANSI_SPLIT.tail.slice(10));
    expect(text.slice(0, span?.start)).toBe("token ");
  });

  test("a token glued to a name by _ or - (an echoed tool name or argument)", () => {
    const ghp = `ghp_${rand(36)}`;
    const proj = `sk-proj-${rand(40)}`;
    expect(redact(`No tool named "no_such_tool_${ghp}".`)).toBe('No tool named "no_such_tool_[REDACTED:github]".');
    expect(redact(`(was "heavy-${proj}")`)).toBe('(was "heavy-[REDACTED:openai]")');
  });

  test("the words around them stay: ordinary config and commands are not masked", () => {
    for (const text of [
      "PWD=/home/alice/project",
      "url: https://example.com/docs?page=2",
      "signature_version: v4",
      "mysql -h db -P 3306 app",
      "Cookie: [REDACTED:cookie]",
      "login_url: https://x/login",
    ])
      expect(redact(text)).toBe(text);
  });
});
