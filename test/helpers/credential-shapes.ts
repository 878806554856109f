/**
 * Credential shapes from real formats (issue 21 item 10), each a text with `$` where its secret
 * goes: the unit tests (test/safety/redact-shapes.test.ts) and the egress end-to-end test plant them.
 */
import { B64, HEX, secretGenerator } from "./fake-secrets.ts";

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
  {
    name: "an Azure storage AccountKey",
    secret: `${rand(40, B64)}==`,
    text: "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=$;EndpointSuffix=core.windows.net",
  },
  {
    name: "an S3 presigned URL's X-Amz-Signature",
    secret: rand(64, HEX),
    text: "https://b.s3.amazonaws.com/k?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date=20260101T000000Z&X-Amz-Signature=$",
  },
  { name: "a SAS URL's sig=", secret: `${rand(30)}%2B${rand(8)}%3D`, text: "https://acct.blob.core.windows.net/c/b?sv=2022-11-02&se=2026-01-01&sp=r&sig=$" },
];

/** Every shape with its secret in place, one per line. */
export function shapesText(): string {
  return SHAPES.map((c) => c.text.replace("$", c.secret)).join("\n");
}
