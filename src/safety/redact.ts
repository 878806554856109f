/**
 * The one scrubber (SPEC §6): applied to every stored copy and every returned text or error.
 * Best-effort pattern matching: known credential shapes (redact-rules.ts) and `key = value`
 * assignments whose key names a secret. The key name stays; the value becomes `[REDACTED:<kind>]`.
 */
import { BLOCK_RULES, CONTEXT_RULES, PEM_MARKER, PEM_TRUNCATED_BODY, TOKEN_RULES, type Rule } from "./redact-rules.ts";

const MARK = "[REDACTED";

function mark(kind: string): string {
  return `[REDACTED:${kind}]`;
}

function applyRule(text: string, rule: Rule): string {
  rule.re.lastIndex = 0;
  return text.replace(rule.re, (...args: unknown[]) => {
    const match = args[0] as string;
    const groups = args.at(-1) as Record<string, string | undefined>;
    const value = groups.value;
    if (!value || (rule.accept && !rule.accept(value))) return match;
    const pre = groups.pre ?? "";
    return `${pre}${mark(rule.kind)}${match.slice(pre.length + value.length)}`;
  });
}

/**
 * PEM blocks in one linear pass over the BEGIN/END markers (a regex with a lazy body goes
 * quadratic on many BEGINs without an END). A BEGIN without its END loses the base64 after it.
 */
function redactPem(text: string): string {
  let out = "";
  let copied = 0;
  let open: number | undefined;
  const closeTruncated = (limit: number) => {
    if (open === undefined) return;
    const header = text.indexOf("-----", open + 5) + 5;
    const body = PEM_TRUNCATED_BODY.exec(text.slice(header, limit))?.[0].length ?? 0;
    out += `${text.slice(copied, open)}${mark("private_key")}`;
    copied = header + body;
    open = undefined;
  };
  PEM_MARKER.lastIndex = 0;
  for (let m = PEM_MARKER.exec(text); m; m = PEM_MARKER.exec(text)) {
    if (m[1] === "BEGIN") {
      closeTruncated(m.index);
      open = m.index;
    } else if (open !== undefined) {
      out += `${text.slice(copied, open)}${mark("private_key")}`;
      copied = m.index + m[0].length;
      open = undefined;
    }
  }
  closeTruncated(text.length);
  return copied === 0 ? text : out + text.slice(copied);
}

/** Last words that make a secret-sounding key describe something else (`token_type`, `password_file`). */
const NOT_SECRET_LAST = new Set(
  "id ids name names type types path file dir url uri endpoint env var length len count limit limits max min ttl expiry expires expiration header field kind prefix suffix format hint label policy mode required enabled disabled source provider usage size budget".split(" "),
);

function keyWords(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[\s_.\-]+/)
    .filter(Boolean);
}

/** The kind of secret a key names, or undefined when it does not name one. */
export function secretKeyKind(key: string): string | undefined {
  const words = keyWords(key);
  const last = words.at(-1);
  if (!last || NOT_SECRET_LAST.has(last)) return undefined;
  const has = (w: string) => words.includes(w);
  const pair = (a: string, b: string) => words.some((w, i) => w === a && words[i + 1] === b);
  if (has("aws") && has("secret")) return "aws_secret";
  if (has("password") || has("passwd") || has("passphrase")) return "password";
  if (has("secret") || has("secrets")) return "secret";
  if (has("token")) return "token";
  if (has("apikey") || pair("api", "key") || pair("access", "key")) return "api_key";
  if (pair("private", "key")) return "private_key";
  if (has("credential") || has("credentials")) return "credential";
  return undefined;
}

const TYPE_WORDS = /^(?:true|false|null|none|nil|undefined|string|number|boolean|bool|str|int|integer|bytes|any|unknown|object|optional|required|await|new|this|self|typeof|function|async|yield|void|lambda)$/i;

/** Values that are code, references or placeholders rather than a secret. */
function isNotASecret(inner: string, quoted: boolean, key: string): boolean {
  if (inner.length < 3 || inner.startsWith(MARK)) return true;
  if (TYPE_WORDS.test(inner) || inner.toLowerCase() === key.toLowerCase()) return true;
  if (/^\$\{?[A-Za-z_]|^\{\{.*\}\}$|^<[^>]*>$|^%[A-Za-z_]+%$/.test(inner)) return true;
  if (!quoted && inner.startsWith("<")) return true;
  if (/^(?:\*+|x{3,}|\.{3}|…)$/i.test(inner)) return true;
  if (quoted) return false;
  if (/^\d{1,6}$/.test(inner) || /[([{]/.test(inner)) return true;
  // `token: SessionToken`: a type name in an annotation. Letters only: `MySecretPass1` or an AWS
  // secret made of capitalised chunks with digits is a value, not a type.
  if (/^[A-Z][a-z]+(?:[A-Z][a-z]+)+$/.test(inner)) return true;
  // `token = self.token`, `password: config.db.password`: member access, not a literal.
  return /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(inner);
}

const QUOTED_VALUE = String.raw`\\"(?:[^"\\\n]){1,500}\\"|"(?:[^"\\\n]|\\.){1,500}"|'[^'\n]{1,500}'|` + "`[^`\\n]{1,500}`";
const BARE_VALUE = String.raw`[^\s"'` + "`" + String.raw`,;&)}\]]+`;

const ASSIGNMENT = new RegExp(
  String.raw`(?<pre>(?<q>\\?["']?)(?<![A-Za-z0-9_.-])(?<key>[A-Za-z_][A-Za-z0-9_.-]{0,80})\k<q>[ \t]*(?:=|:=|:(?!\/\/)|=>)[ \t]*)(?<value>${QUOTED_VALUE}|${BARE_VALUE})`,
  "g",
);

/** `--password x`, `--api-key=x`, `-token x` on a command line. */
const FLAG = /(?<pre>(?<![A-Za-z0-9_-])--?(?<key>[A-Za-z][A-Za-z0-9-]{0,40})(?:=|[ \t]+))(?<value>"[^"\n]{1,500}"|'[^'\n]{1,500}'|[^\s"'`;&|]+)/g;

function unquote(value: string): { inner: string; open: string; close: string } {
  const m = /^(\\?["'`])([\s\S]*)(\1)$/.exec(value);
  if (!m) return { inner: value, open: "", close: "" };
  return { inner: m[2] ?? "", open: m[1] ?? "", close: m[3] ?? "" };
}

function replaceAssignments(text: string, re: RegExp): string {
  re.lastIndex = 0;
  return text.replace(re, (...args: unknown[]) => {
    const match = args[0] as string;
    const groups = args.at(-1) as Record<string, string | undefined>;
    const { key = "", value = "", pre = "" } = groups;
    const kind = secretKeyKind(key);
    if (!kind) return match;
    const { inner, open, close } = unquote(value);
    if (isNotASecret(inner, open !== "", key)) return match;
    return `${pre}${open}${mark(kind)}${close}${match.slice(pre.length + value.length)}`;
  });
}

/** Scrubs credentials out of free text. Idempotent: scrubbing twice changes nothing more. */
export function redact(text: string): string {
  if (!text) return text;
  let out = redactPem(text);
  for (const rule of [...BLOCK_RULES, ...TOKEN_RULES, ...CONTEXT_RULES]) out = applyRule(out, rule);
  out = replaceAssignments(out, ASSIGNMENT);
  return replaceAssignments(out, FLAG);
}

/** Scrubs every string inside a JSON-like value; a string under a secret-named key goes whole. */
export function redactDeep<T>(value: T): T {
  return walk(value, new WeakMap()) as T;
}

function walk(value: unknown, seen: WeakMap<object, unknown>): unknown {
  if (typeof value === "string") return redact(value);
  if (typeof value !== "object" || value === null) return value;
  const done = seen.get(value);
  if (done !== undefined) return done;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    seen.set(value, out);
    for (const item of value) out.push(walk(item, seen));
    return out;
  }
  const out: Record<string, unknown> = {};
  seen.set(value, out);
  for (const [key, item] of Object.entries(value)) {
    const kind = secretKeyKind(key);
    const whole = kind !== undefined && typeof item === "string" && !isNotASecret(item, true, key);
    out[key] = whole ? mark(kind) : walk(item, seen);
  }
  return out;
}

// ---- locating, for a plan that must say where credential-shaped text is ----

/** Where the scrubber would mask, in the original text: [start, end) and the kind it would name. */
export interface SecretSpan {
  start: number;
  end: number;
  kind: string;
}

/**
 * The same rules as redact(), reporting where they match instead of replacing — a review plan shows
 * the person where credential-shaped text sits before anything is sent. Each pass runs on the
 * original text; where two rules cover the same text the one redact() applies first names it.
 */
export function findSecrets(text: string): SecretSpan[] {
  if (!text) return [];
  const found = [...pemSpans(text)];
  for (const rule of [...BLOCK_RULES, ...TOKEN_RULES, ...CONTEXT_RULES]) found.push(...ruleSpans(text, rule));
  found.push(...assignmentSpans(text, ASSIGNMENT), ...assignmentSpans(text, FLAG));
  const kept: SecretSpan[] = [];
  for (const span of found) if (!kept.some((k) => span.start < k.end && k.start < span.end)) kept.push(span);
  return kept.sort((a, b) => a.start - b.start);
}

/** `d` adds match indices: the spans of the named groups. */
function withIndices(re: RegExp): RegExp {
  return new RegExp(re.source, re.flags.includes("d") ? re.flags : `${re.flags}d`);
}

function ruleSpans(text: string, rule: Rule): SecretSpan[] {
  const out: SecretSpan[] = [];
  for (const m of text.matchAll(withIndices(rule.re))) {
    const value = m.groups?.value;
    const at = m.indices?.groups?.value;
    if (!value || !at || (rule.accept && !rule.accept(value))) continue;
    out.push({ start: at[0], end: at[1], kind: rule.kind });
  }
  return out;
}

function assignmentSpans(text: string, re: RegExp): SecretSpan[] {
  const out: SecretSpan[] = [];
  for (const m of text.matchAll(withIndices(re))) {
    const { key = "", value = "" } = m.groups ?? {};
    const at = m.indices?.groups?.value;
    const kind = secretKeyKind(key);
    if (!kind || !at) continue;
    const { inner, open, close } = unquote(value);
    if (isNotASecret(inner, open !== "", key)) continue;
    out.push({ start: at[0] + open.length, end: at[1] - close.length, kind });
  }
  return out;
}

/** The BEGIN…END span of each private key; a BEGIN without its END runs over the base64 after it (as redactPem). */
function pemSpans(text: string): SecretSpan[] {
  const out: SecretSpan[] = [];
  let open: number | undefined;
  const truncated = (limit: number) => {
    if (open === undefined) return;
    const header = text.indexOf("-----", open + 5) + 5;
    const body = PEM_TRUNCATED_BODY.exec(text.slice(header, limit))?.[0].length ?? 0;
    out.push({ start: open, end: header + body, kind: "private_key" });
    open = undefined;
  };
  const marker = new RegExp(PEM_MARKER.source, PEM_MARKER.flags);
  for (let m = marker.exec(text); m; m = marker.exec(text)) {
    if (m[1] === "BEGIN") {
      truncated(m.index);
      open = m.index;
    } else if (open !== undefined) {
      out.push({ start: open, end: m.index + m[0].length, kind: "private_key" });
      open = undefined;
    }
  }
  truncated(text.length);
  return out;
}
