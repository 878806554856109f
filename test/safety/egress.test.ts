/**
 * The one egress point (src/safety/egress.ts): every MCP message is scrubbed on its way to stdout,
 * the log and the command line write through scrubbing streams, and no other module in src/ can
 * write where a client or a person reads — so a new path cannot forget to redact.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { PassThrough } from "node:stream";
import { REPO_ROOT } from "../../fakes/lib/sandbox.ts";
import { stdioWire } from "../../src/mcp/stdio.ts";
import { compiledIn, messageLine, scrub } from "../../src/safety/egress.ts";
import { newToken } from "../../src/services/shared/tokens.ts";
import { j, secretGenerator } from "../helpers/fake-secrets.ts";

const rand = secretGenerator(2101);
const GHP = j("ghp_", rand(36));
const PROJ = j("sk-proj-", rand(48));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith(".ts") ? [path] : [];
  });
}

/** What writes where a person or a client reads, other than through src/safety/egress.ts. */
const WRITERS: [string, RegExp][] = [
  ["process.stdout / process.stderr", /\bprocess\.(?:stdout|stderr)\b/],
  ["Bun.stdout / Bun.stderr", /\bBun\.(?:stdout|stderr)\b/],
  ["console.*", /\bconsole\.(?:log|error|warn|info|debug|trace|dir|table)\s*\(/],
  ["a write to fd 1 or 2", /\bwriteSync\(\s*[12]\s*[,)]|\/dev\/std(?:out|err)/],
  ["the SDK's own stdio transport", /StdioServerTransport/],
];

describe("no other writer exists", () => {
  test("src/ names no stdout, stderr or console outside src/safety/egress.ts", () => {
    const files = sourceFiles(join(REPO_ROOT, "src"));
    expect(files.length).toBeGreaterThan(100);
    const found: string[] = [];
    for (const file of files) {
      const rel = relative(REPO_ROOT, file);
      if (rel === join("src", "safety", "egress.ts")) continue;
      // Comments may name them (explaining why not); code may not.
      const code = readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\/|(^|[^:"'`])\/\/.*$/gm, "$1");
      for (const [what, re] of WRITERS) if (re.test(code)) found.push(`${rel}: ${what}`);
    }
    expect(found).toEqual([]);
  });

  test("every consola logger is built on the scrubbing streams", () => {
    const files = sourceFiles(join(REPO_ROOT, "src")).filter((f) => readFileSync(f, "utf8").includes("createConsola("));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const text = readFileSync(file, "utf8");
      // Without stdout/stderr, consola writes to process.stdout itself — the MCP stream.
      for (const call of text.matchAll(/createConsola\(\{([^}]*)\}/g)) expect(call[1]).toMatch(/stdout: stderr,\s*stderr\b/);
      expect(text).toMatch(/from "\.\.?\/(?:\.\.\/)?safety\/egress\.ts"|from "\.\/safety\/egress\.ts"/);
    }
  });
});

describe("the MCP stream", () => {
  function capture() {
    const input = new PassThrough();
    const output = new PassThrough();
    let written = "";
    output.on("data", (chunk: Buffer) => {
      written += chunk.toString();
    });
    return {
      wire: stdioWire(input, output),
      lines: () =>
        written
          .split("\n")
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Record<string, unknown>),
      raw: () => written,
    };
  }

  test("replies, errors and notifications are scrubbed, and each stays one JSON line", () => {
    const { wire, lines, raw } = capture();
    wire.send({
      jsonrpc: "2.0",
      method: "notifications/progress",
      params: { progressToken: 7, progress: 1, message: `attempt 1/1 · running curl -H 'Authorization: Bearer ${GHP}'` },
    });
    wire.send({
      jsonrpc: "2.0",
      id: 1,
      result: { content: [{ type: "text", text: `key ${PROJ}` }], structuredContent: { ok: true, answer: `export OPENAI_API_KEY="${PROJ}"` } },
    });
    wire.send({ jsonrpc: "2.0", id: 2, error: { code: -32602, message: `No tool named "${GHP}".` } });
    wire.send({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: { line: `token=${GHP}` } } });
    expect(raw()).not.toContain(GHP);
    expect(raw()).not.toContain(PROJ);
    expect(lines()).toHaveLength(4);
    expect(raw()).toContain("[REDACTED:github]");
    expect(raw()).toContain("[REDACTED:openai]");
  });

  test("a value that only the serialized form would split keeps the line valid JSON", () => {
    const { wire, lines } = capture();
    wire.send({ jsonrpc: "2.0", id: 3, result: { text: `password="a\\"b" and api_key=x\\"y ${"\\".repeat(3)}` } });
    expect(lines()).toHaveLength(1);
  });

  test("orchestrate's own one-time tokens come back whole, in the text and the structured reply", () => {
    const token = newToken("rvw");
    const line = messageLine({ result: { text: `Token: ${token}\nCall review_run with token=${token}`, token } });
    expect(line.split(token)).toHaveLength(4);
  });

  test("compiled-in text skips the rules; the same words from a caller do not", () => {
    const description = `Use this tool when the caller has ${"a".repeat(20)} and password: ${rand(16)}.`;
    expect(scrub({ d: description }).d).not.toBe(description);
    compiledIn({ d: description });
    expect(scrub({ d: description }).d).toBe(description);
    expect(scrub({ d: `${description} ` }).d).not.toBe(`${description} `);
  });
});

describe("the log and the command line", () => {
  test("a log line and a CLI write are scrubbed on stderr and stdout", async () => {
    const script = [
      `import { log } from "${join(REPO_ROOT, "src", "log.ts")}";`,
      `import { stdout, stderr, printJson } from "${join(REPO_ROOT, "src", "safety", "egress.ts")}";`,
      `log.warn("delegate ran curl -H 'Authorization: Bearer ${GHP}'");`,
      `log.error(new Error("failed with key ${PROJ}"));`,
      `stderr.write("… running psql with token=${GHP}\\n");`,
      `stdout.write(new TextEncoder().encode("answer: ${PROJ}\\n"));`,
      `printJson({ text: "Authorization: Bearer ${GHP}" });`,
    ].join("\n");
    const proc = Bun.spawn([process.execPath, "-e", script], { stdout: "pipe", stderr: "pipe", env: { ...process.env, ORCHESTRATE_LOG_LEVEL: "4" } });
    const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    expect(err).toContain("delegate ran curl");
    expect(err).toContain("failed with key");
    expect(err).toContain("running psql");
    expect(out).toContain("answer:");
    expect(JSON.parse(out.split("\n")[1] ?? "")).toEqual({ text: "Authorization: Bearer [REDACTED:github]" });
    for (const secret of [GHP, PROJ]) expect(out + err).not.toContain(secret);
  });
});

describe("the dashboard", () => {
  test("its one template scrubs what it interpolates, before escaping", async () => {
    const { html } = await import("../../src/dashboard/html.ts");
    const page = html`<pre>${`curl -H "Authorization: Bearer ${GHP}" -d 'api_key="${rand(24)}"'`}</pre><p>${42}</p>`.value;
    expect(page).not.toContain(GHP);
    expect(page).toContain("[REDACTED:github]");
    expect(page).toContain("[REDACTED:api_key]");
    expect(page).toContain("&quot;");
    expect(page).toContain("<p>42</p>");
  });
});

describe("a terminal's escapes", () => {
  test("the scrubbing streams keep cursor and colour escapes and scrub the text between them", async () => {
    const script = [
      `import { stderr } from "${join(REPO_ROOT, "src", "safety", "egress.ts")}";`,
      `stderr.write("\\x1b[2A\\r\\x1b[2K\\x1b[31mkey ${PROJ}\\x1b[0m\\x1b[2B\\r");`,
    ].join("\n");
    const proc = Bun.spawn([process.execPath, "-e", script], { stdout: "pipe", stderr: "pipe" });
    const [err] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
    expect(err).toBe("\x1b[2A\r\x1b[2K\x1b[31mkey [REDACTED:openai]\x1b[0m\x1b[2B\r");
  });
});
