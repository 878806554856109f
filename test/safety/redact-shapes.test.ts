/**
 * Shapes the scrubber missed (issue 21 item 10), each from its real format: the secret is gone
 * from redact()'s output, findSecrets() points at it, and a second pass changes nothing.
 */
import { describe, expect, test } from "bun:test";
import { findSecrets, redact } from "../../src/safety/redact.ts";
import { B64, HEX, j, secretGenerator } from "../helpers/fake-secrets.ts";

const rand = secretGenerator(2110);

export const SHAPES: { name: string; secret: string; text: string }[] = [
  { name: "URL password with an empty user", secret: `pw${rand(14)}`, text: "redis://:$@cache.internal:6379/0" },
  { name: "a token in a URL that is a `url:` value", secret: rand(28), text: "url: https://api.example.com/v1/items?api_key=$&page=2" },
  { name: "a token in a URL that is a `url=` value", secret: rand(28), text: "curl url=https://h.example/x?access_token=$ -o out" },
  { name: "PGPASSWORD in the environment", secret: `pg${rand(14)}`, text: "PGPASSWORD=$ psql -h db -U app" },
  { name: "MYSQL_PWD in the environment", secret: `my${rand(14)}`, text: "export MYSQL_PWD=$" },
  { name: "mysql -p glued to the password", secret: `my${rand(14)}`, text: "mysql -uroot -p$ -h db app" },
  { name: "--password=", secret: `pd${rand(14)}`, text: "pg_dump --password=$ app" },
  { name: "a Cookie header", secret: rand(32), text: "curl -H 'Cookie: session=$; theme=dark' https://x" },
  { name: "a Set-Cookie header", secret: rand(32), text: "Set-Cookie: sid=$; Path=/; HttpOnly" },
  { name: "a YAML block value", secret: rand(40, B64), text: "db:\n  password: |\n    $\n    second-line\n  host: db" },
  { name: ".netrc on one line", secret: `nr${rand(14)}`, text: "machine api.example.com login alice password $" },
  { name: ".netrc on several lines", secret: `nr${rand(14)}`, text: "machine api.example.com\n  login alice\n  password $\n" },
  { name: "docker auths", secret: Buffer.from(`alice:${rand(16)}`).toString("base64"), text: '{"auths": {"registry.example.com": {"auth": "$"}}}' },
  { name: "an Azure storage AccountKey", secret: `${rand(40, B64)}==`, text: "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=$;EndpointSuffix=core.windows.net" },
  { name: "an S3 presigned URL's X-Amz-Signature", secret: rand(64, HEX), text: "https://b.s3.amazonaws.com/k?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date=20260101T000000Z&X-Amz-Signature=$" },
  { name: "a SAS URL's sig=", secret: `${rand(30)}%2B${rand(8)}%3D`, text: "https://acct.blob.core.windows.net/c/b?sv=2022-11-02&se=2026-01-01&sp=r&sig=$" },
];

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

  test("the words around them stay: ordinary config and commands are not masked", () => {
    for (const text of ["PWD=/home/alice/project", "url: https://example.com/docs?page=2", "signature_version: v4", "mysql -h db -P 3306 app", "Cookie: [REDACTED:cookie]", "login_url: https://x/login"]) expect(redact(text)).toBe(text);
  });
});
