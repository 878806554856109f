/** findSecrets: the scrubber's own rules, reporting where they match — what a review plan shows the person. */
import { describe, expect, test } from "bun:test";
import { findSecrets, redact } from "../../src/safety/redact.ts";
import { B64, HEX, j, secretGenerator } from "../helpers/fake-secrets.ts";

const rand = secretGenerator(11);

const CASES: { kind: string; secret: string; text: string }[] = [
  { kind: "openai", secret: j("sk-proj-", rand(60)), text: "key: $" },
  { kind: "anthropic", secret: j("sk-ant-api03-", rand(93), "AA"), text: 'export ANTHROPIC_API_KEY="$"' },
  { kind: "github", secret: j("ghp_", rand(36)), text: "git clone https://$@github.com/o/r" },
  { kind: "aws_access_key", secret: j("AKIA", rand(16, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")), text: "aws_access_key_id = $" },
  { kind: "jwt", secret: j("eyJ", rand(20), ".", "eyJ", rand(40), ".", rand(43)), text: "cookie session=$; path=/" },
  { kind: "bearer", secret: rand(40), text: "Authorization: Bearer $" },
  { kind: "url_password", secret: "hunter2-Pw", text: "postgres://alice:$@db.internal:5432/app" },
  { kind: "password", secret: "correct-horse-9", text: "DB_PASSWORD=$" },
  { kind: "api_key", secret: rand(32, HEX), text: '{"api_key": "$", "model": "m"}' },
  { kind: "password", secret: "Tr0ub4dor-3", text: "mysql --password $ -h db" },
  { kind: "private_key", secret: `-----BEGIN RSA PRIVATE KEY-----\n${rand(64, B64)}\n-----END RSA PRIVATE KEY-----`, text: "x\n$\ny" },
];

describe("findSecrets", () => {
  for (const c of CASES) {
    test(`${c.kind}: the span is exactly the secret, and redact masks it`, () => {
      const text = c.text.replace("$", c.secret);
      const spans = findSecrets(text);
      expect(spans).toHaveLength(1);
      const [span] = spans;
      expect(text.slice(span?.start, span?.end)).toBe(c.secret);
      expect(span?.kind).toBe(c.kind);
      expect(redact(text)).not.toContain(c.secret);
    });
  }

  test("several in one text come back in order, none overlapping; clean text has none", () => {
    const a = j("ghp_", rand(36));
    const b = j("sk-ant-api03-", rand(93), "AA");
    const text = `line one\ntoken ${a}\nAuthorization: Bearer ${b}\n`;
    const spans = findSecrets(text);
    expect(spans.map((s) => text.slice(s.start, s.end))).toEqual([a, b]);
    expect(spans.map((s) => s.kind)).toEqual(["github", "anthropic"]);
    expect(findSecrets("const token = config.token;\npassword: string\nnothing here")).toEqual([]);
  });
});
