import { describe, expect, test } from "bun:test";
import { redact, redactDeep, secretKeyKind } from "../../src/safety/redact.ts";

import { B64, HEX, j, secretGenerator, UPPER } from "../helpers/fake-secrets.ts";

const rand = secretGenerator(7);

interface Case {
  name: string;
  secret: string;
  /** The text around it; `$` marks where the secret goes. */
  text: string;
  /** Text that must survive (key names, headers, user names). */
  keep?: string[];
  kind: string;
}

const pemBody = Array.from({ length: 6 }, () => rand(64, B64)).join("\n");
const jwt = j("eyJ", rand(20), ".", "eyJ", rand(40), ".", rand(43));

const CASES: Case[] = [
  { name: "OpenAI legacy", kind: "openai", secret: j("sk-", rand(48)), text: "OPENAI_API_KEY=$", keep: ["OPENAI_API_KEY="] },
  { name: "OpenAI project", kind: "openai", secret: j("sk-proj-", rand(60, `${B64}_-`.replace(/[+/]/g, ""))), text: "key: $" },
  { name: "OpenAI service account", kind: "openai", secret: j("sk-svcacct-", rand(50)), text: "using $ now" },
  {
    name: "Anthropic",
    kind: "anthropic",
    secret: j("sk-ant-api03-", rand(93), "AA"),
    text: 'export ANTHROPIC_API_KEY="$"',
    keep: ["export ANTHROPIC_API_KEY="],
  },
  { name: "Anthropic admin", kind: "anthropic", secret: j("sk-ant-admin01-", rand(80)), text: "$" },
  { name: "OpenRouter", kind: "openrouter", secret: j("sk-or-v1-", rand(64, HEX)), text: "Authorization header would be $" },
  { name: "DeepSeek (sk- + hex)", kind: "openai", secret: j("sk-", rand(32, HEX)), text: "deepseek key $." },
  { name: "Google API key", kind: "google", secret: j("AIza", rand(35)), text: "https://generativelanguage.googleapis.com/v1/models?key=$", keep: ["?key="] },
  { name: "Google OAuth access token", kind: "google_oauth", secret: j("ya29.", rand(100)), text: "token $" },
  { name: "Google OAuth client secret", kind: "google_oauth", secret: j("GOCSPX-", rand(28)), text: "client $" },
  { name: "xAI", kind: "xai", secret: j("xai-", rand(80)), text: "XAI_API_KEY=$" },
  { name: "Groq", kind: "groq", secret: j("gsk_", rand(52)), text: "$" },
  { name: "Hugging Face", kind: "huggingface", secret: j("hf_", rand(34)), text: "login with $" },
  { name: "Perplexity", kind: "perplexity", secret: j("pplx-", rand(48)), text: "$" },
  { name: "Replicate", kind: "replicate", secret: j("r8_", rand(37)), text: "$" },
  { name: "GitHub classic PAT", kind: "github", secret: j("ghp_", rand(36)), text: "git clone https://$@github.com/o/r", keep: ["@github.com/o/r"] },
  { name: "GitHub OAuth", kind: "github", secret: j("gho_", rand(36)), text: "$" },
  { name: "GitHub user-to-server", kind: "github", secret: j("ghu_", rand(36)), text: "$" },
  {
    name: "GitHub server-to-server",
    kind: "github",
    secret: j("ghs_", rand(36)),
    text: "https://x-access-token:$@github.com/o/r.git",
    keep: ["x-access-token:", "@github.com"],
  },
  { name: "GitHub refresh", kind: "github", secret: j("ghr_", rand(36)), text: "$" },
  { name: "GitHub fine-grained PAT", kind: "github", secret: j("github_pat_", rand(22), "_", rand(59)), text: "GH_TOKEN=$" },
  { name: "GitLab PAT", kind: "gitlab", secret: j("glpat-", rand(20)), text: "PRIVATE-TOKEN: $", keep: ["PRIVATE-TOKEN: "] },
  { name: "Slack bot", kind: "slack", secret: j("xoxb-", rand(12, "0123456789"), "-", rand(13, "0123456789"), "-", rand(24)), text: "$" },
  { name: "Slack user", kind: "slack", secret: j("xoxp-", rand(12, "0123456789"), "-", rand(12, "0123456789"), "-", rand(32, HEX)), text: "$" },
  {
    name: "Slack webhook",
    kind: "slack_webhook",
    secret: j("T", rand(10, UPPER), "/B", rand(10, UPPER), "/", rand(24)),
    text: "POST https://hooks.slack.com/services/$",
    keep: ["https://hooks.slack.com/services/"],
  },
  { name: "AWS access key id", kind: "aws_access_key", secret: j("AKIA", rand(16, UPPER)), text: "aws_access_key_id = $" },
  { name: "AWS STS key id", kind: "aws_access_key", secret: j("ASIA", rand(16, UPPER)), text: "$" },
  { name: "AWS secret access key", kind: "aws_secret", secret: rand(40, B64), text: "aws_secret_access_key = $", keep: ["aws_secret_access_key = "] },
  {
    name: "GCP service-account private_key",
    kind: "private_key",
    secret: rand(64, B64),
    text: `{"type": "service_account", "private_key": "-----BEGIN PRIVATE KEY-----\\n$\\n${rand(64, B64)}\\n-----END PRIVATE KEY-----\\n", "client_email": "a@b.iam.gserviceaccount.com"}`,
    keep: ['"private_key": "', "client_email"],
  },
  { name: "PEM RSA private key", kind: "private_key", secret: pemBody, text: "-----BEGIN RSA PRIVATE KEY-----\n$\n-----END RSA PRIVATE KEY-----" },
  {
    name: "PEM OpenSSH private key",
    kind: "private_key",
    secret: pemBody,
    text: "-----BEGIN OPENSSH PRIVATE KEY-----\n$\n-----END OPENSSH PRIVATE KEY-----\n",
  },
  { name: "PEM truncated", kind: "private_key", secret: pemBody, text: "-----BEGIN EC PRIVATE KEY-----\n$" },
  { name: "Stripe live secret", kind: "stripe", secret: j("sk_live_", rand(24)), text: "$" },
  { name: "Stripe restricted", kind: "stripe", secret: j("rk_live_", rand(24)), text: "$" },
  { name: "Stripe webhook secret", kind: "stripe", secret: j("whsec_", rand(32)), text: "$" },
  { name: "npm", kind: "npm", secret: j("npm_", rand(36)), text: "//registry.npmjs.org/:_authToken=$", keep: ["_authToken="] },
  { name: "PyPI", kind: "pypi", secret: j("pypi-AgEIcHlwaS5vcmc", rand(60)), text: "$" },
  { name: "Docker Hub PAT", kind: "docker", secret: j("dckr_pat_", rand(27)), text: "$" },
  { name: "SendGrid", kind: "sendgrid", secret: j("SG.", rand(22), ".", rand(43)), text: "$" },
  { name: "JWT", kind: "jwt", secret: jwt, text: "cookie session=$; path=/" },
  { name: "Bearer header", kind: "bearer", secret: rand(40), text: "Authorization: Bearer $", keep: ["Authorization: Bearer "] },
  {
    name: "Bearer in curl",
    kind: "bearer",
    secret: j(rand(20), ".", rand(10)),
    text: `curl -H "Authorization: Bearer $" https://api`,
    keep: ['curl -H "Authorization: Bearer '],
  },
  {
    name: "Basic header",
    kind: "basic_auth",
    secret: Buffer.from("alice:s3cr3t-pw").toString("base64"),
    text: "Authorization: Basic $",
    keep: ["Authorization: Basic "],
  },
  { name: "Digest-like custom scheme", kind: "authorization", secret: rand(30), text: "Authorization: ApiKey $", keep: ["Authorization: ApiKey "] },
  {
    name: "URL password",
    kind: "url_password",
    secret: "hunter2-Pw",
    text: "postgres://alice:$@db.internal:5432/app",
    keep: ["postgres://alice:", "@db.internal:5432/app"],
  },
  { name: "password= assignment", kind: "password", secret: "correct-horse-9", text: "DB_PASSWORD=$", keep: ["DB_PASSWORD="] },
  { name: "secret: yaml", kind: "secret", secret: "mY-sEcReT-value-7", text: "client_secret: $", keep: ["client_secret: "] },
  { name: "token= in a query", kind: "token", secret: rand(24), text: "https://x.test/cb?token=$&state=abc", keep: ["?token=", "&state=abc"] },
  { name: "api_key JSON", kind: "api_key", secret: rand(32, HEX), text: '{"api_key": "$", "model": "m"}', keep: ['"api_key": "', '"model": "m"'] },
  { name: "apiKey camelCase", kind: "api_key", secret: rand(30), text: "const config = { apiKey: '$' };", keep: ["apiKey: '"] },
  { name: "x-api-key header", kind: "api_key", secret: rand(30), text: "x-api-key: $", keep: ["x-api-key: "] },
  { name: "escaped JSON in a log line", kind: "password", secret: "p4ssw0rd!!", text: '{\\"password\\": \\"$\\"}', keep: ['\\"password\\": \\"'] },
  { name: "--password flag", kind: "password", secret: "Tr0ub4dor-3", text: "mysql --password $ -h db", keep: ["mysql --password ", " -h db"] },
  { name: "--token= flag", kind: "token", secret: rand(20), text: "cli login --token=$", keep: ["--token="] },
];

describe("redact: the credential corpus", () => {
  test(`covers at least 30 formats (${CASES.length})`, () => {
    expect(CASES.length).toBeGreaterThanOrEqual(30);
  });

  for (const c of CASES) {
    test(c.name, () => {
      const text = c.text.replace("$", c.secret);
      const out = redact(text);
      expect(out).not.toContain(c.secret);
      expect(out).toContain(`[REDACTED:${c.kind}]`);
      for (const keep of c.keep ?? []) expect(out).toContain(keep);
      expect(redact(out)).toBe(out);
    });
  }

  test("several PEM blocks, complete and truncated, each go; text between them stays", () => {
    const a = rand(64, B64);
    const b = rand(64, B64);
    const c = rand(64, B64);
    const text = `one\n-----BEGIN PRIVATE KEY-----\n${a}\n-----END PRIVATE KEY-----\ntwo: keep me\n-----BEGIN EC PRIVATE KEY-----\n${b}\n...\nthree\n-----BEGIN PRIVATE KEY-----\n${c}`;
    const out = redact(text);
    for (const s of [a, b, c]) expect(out).not.toContain(s);
    expect(out).toBe("one\n[REDACTED:private_key]\ntwo: keep me\n[REDACTED:private_key]...\nthree\n[REDACTED:private_key]");
  });

  test("a whole .env file loses every value and keeps every name", () => {
    const secrets = CASES.slice(0, 12).map((c) => c.secret);
    const env = secrets.map((s, i) => `VAR_${i}_KEY=${s}`).join("\n");
    const out = redact(env);
    for (const s of secrets) expect(out).not.toContain(s);
    for (let i = 0; i < secrets.length; i++) expect(out).toContain(`VAR_${i}_KEY=[REDACTED:`);
  });
});

describe("redact: ordinary text survives", () => {
  const ORDINARY = [
    "The sk- prefix marks OpenAI keys; sk-learn-style names are not keys.",
    "commit 3f786850e387550fdab836ed7e6dc881de23001b fixed it (HEAD~1 was 9c1185a5c5e9fc54612808977ee8f548b2258d31)",
    "request id 123e4567-e89b-12d3-a456-426614174000 and run 550e8400-e29b-41d4-a716-446655440000",
    "function login(user: string, password: string): Promise<Token> { return auth(user, password); }",
    "interface Options { token?: string; apiKey: ApiKey; maxTokens: number }",
    "const token = await getToken();\nconst password = process.env.DB_PASSWORD;",
    "max_tokens: 4096\ntoken_count: 12\npassword_file: /etc/app/pw\ntoken_type: bearer",
    "password: required\nsecret: ${SECRET_FROM_VAULT}\napi_key: <your key here>\ntoken: '{{ token }}'",
    "Use Bearer authentication or Basic authentication with the Authorization header.",
    "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "https://github.com/owner/repo/pull/42 and https://user@example.com/path",
    'token: null\npassword = None\napi_key = os.environ["API_KEY"]',
    "see the tokenizer; passwords must be rotated; a secret santa list",
    "AKIA is the prefix of AWS access key ids (AKIAxxxx...).",
  ];
  for (const text of ORDINARY) {
    test(JSON.stringify(text.slice(0, 50)), () => {
      expect(redact(text)).toBe(text);
    });
  }
});

describe("redactDeep", () => {
  test("walks objects and arrays; a secret-named key loses its whole string", () => {
    const github = j("ghp_", rand(36));
    const input = {
      prompt: `use ${github} please`,
      nested: [{ password: "plain words here" }, { note: "fine" }],
      headers: { Authorization: `Bearer ${rand(40)}`, accept: "json" },
      count: 3,
      max_tokens: 100,
    };
    const out = redactDeep(input);
    expect(out).toEqual({
      prompt: "use [REDACTED:github] please",
      nested: [{ password: "[REDACTED:password]" }, { note: "fine" }],
      headers: { Authorization: "Bearer [REDACTED:bearer]", accept: "json" },
      count: 3,
      max_tokens: 100,
    });
    expect(input.prompt).toContain(github);
  });

  test("survives cycles", () => {
    const a: Record<string, unknown> = { token: rand(30) };
    a.self = a;
    const out = redactDeep(a) as Record<string, unknown>;
    expect(out.token).toBe("[REDACTED:token]");
    expect(out.self).toBe(out);
  });
});

test("secretKeyKind", () => {
  expect(secretKeyKind("GITHUB_TOKEN")).toBe("token");
  expect(secretKeyKind("dbPassword")).toBe("password");
  expect(secretKeyKind("x-api-key")).toBe("api_key");
  expect(secretKeyKind("AWS_SECRET_ACCESS_KEY")).toBe("aws_secret");
  expect(secretKeyKind("max_tokens")).toBeUndefined();
  expect(secretKeyKind("token_type")).toBeUndefined();
  expect(secretKeyKind("AWS_ACCESS_KEY_ID")).toBeUndefined();
});

describe("capitalised values with digits are secrets, not type names", () => {
  test.each(["password=MySecretPass1", "api_key: AbcDef12GhiJkl34MnoPqr56", "aws_secret_access_key = EzkcPinje7Dj9HZ23KduxcAI8zYQx1yibXNiPq42"])(
    "%s",
    (text) => {
      const value = text.split(/[=:]\s*/)[1] as string;
      expect(redact(text)).not.toContain(value);
    },
  );

  test("a type annotation stays", () => {
    expect(redact("token: SessionToken")).toBe("token: SessionToken");
  });
});
