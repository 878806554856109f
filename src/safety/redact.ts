/**
 * The one scrubber (docs/egress.md): applied to every stored copy and every returned text or error.
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
  "id ids name names type types path file dir url uri endpoint env var length len count limit limits max min ttl expiry expires expiration header field kind prefix suffix format hint label policy mode required enabled disabled source provider usage size budget version algorithm method".split(
    " ",
  ),
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
  // PGPASSWORD, MYSQL_PWD, REDISCLI_AUTH-style names: the word is glued to a prefix, or abbreviated.
  if (words.some((w) => /(?:password|passwd|passphrase)$/.test(w)) || (words.length > 1 && has("pwd"))) return "password";
  if (pair("account", "key")) return "account_key";
  if (has("signature") || key === "sig") return "signature";
  if (has("cookie") || has("cookies")) return "cookie";
  if (has("secret") || has("secrets")) return "secret";
  if (words.some((w) => w.endsWith("token"))) return "token";
  if (has("apikey") || pair("api", "key") || pair("access", "key")) return "api_key";
  if (pair("private", "key")) return "private_key";
  if (has("credential") || has("credentials")) return "credential";
  return undefined;
}

const TYPE_WORDS =
  /^(?:true|false|null|none|nil|undefined|string|number|boolean|bool|str|int|integer|bytes|any|unknown|object|optional|required|await|new|this|self|typeof|function|async|yield|void|lambda)$/i;

/**
 * orchestrate's own one-time tokens (src/services/shared/tokens.ts newToken: review, workflow step,
 * replan, delete-all; the dashboard's URL token): the caller must be able to read them back to
 * spend them, and each is single-use and bound to what it approves.
 */
export const OWN_TOKEN = /^(?:rvw|wfs|wfr|del|dsh)_[A-Za-z0-9_-]{32}$/;

/** Values that are code, references or placeholders rather than a secret. */
function isNotASecret(inner: string, quoted: boolean, key: string): boolean {
  if (inner.length < 3 || inner.startsWith(MARK) || OWN_TOKEN.test(inner)) return true;
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

/** The assignment passes, after the shape passes: `key = value`, then command-line flags. */
const ASSIGNMENTS = [ASSIGNMENT, FLAG];

function unquote(value: string): { inner: string; open: string; close: string } {
  const m = /^(\\?["'`])([\s\S]*)(\1)$/.exec(value);
  if (!m) return { inner: value, open: "", close: "" };
  return { inner: m[2] ?? "", open: m[1] ?? "", close: m[3] ?? "" };
}

/** One `key = value` whose key names a secret: where its value starts and ends in the text, and the kind. */
interface SecretAssignment {
  start: number;
  end: number;
  kind: string;
  open: string;
  close: string;
}

/**
 * The secret assignments, in order. A match whose key names no secret gives back everything after
 * its operator, so a value that is itself a text is scanned too: in `url=https://h/?api_key=…` the
 * outer value is a URL, and the key inside it names a secret (replace() would have consumed both).
 */
function* secretAssignments(text: string, re: RegExp): Generator<SecretAssignment> {
  for (const a of assignmentScan(text, re)) if (a) yield a;
}

/** Every `key = value` match in order: its assignment when the key names a secret, else null. */
function* assignmentScan(text: string, re: RegExp): Generator<SecretAssignment | null> {
  const scan = new RegExp(re.source, re.flags);
  for (let m = scan.exec(text); m; m = scan.exec(text)) {
    const { key = "", value = "", pre = "" } = m.groups ?? {};
    const kind = secretKeyKind(key);
    const { inner, open, close } = unquote(value);
    if (!kind || isNotASecret(inner, open !== "", key)) {
      scan.lastIndex = m.index + pre.length;
      yield null;
      continue;
    }
    const start = m.index + pre.length;
    yield { start, end: start + value.length, kind, open, close };
  }
}

function replaceAssignments(text: string, re: RegExp): string {
  return spliced(text, secretAssignments(text, re));
}

/** The text with each assignment's value (in order) replaced by its mark, quotes kept. */
function spliced(text: string, assignments: Iterable<SecretAssignment>): string {
  let out = "";
  let copied = 0;
  for (const a of assignments) {
    out += `${text.slice(copied, a.start)}${a.open}${mark(a.kind)}${a.close}`;
    copied = a.end;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/**
 * No rule matches fewer characters (`token=abc`, `a://b:pwd@`): the many short strings of a JSON
 * message (types, ids, enum values) skip the rule passes — the egress point scrubs every one.
 */
const SHORTEST_SECRET = 8;

/**
 * Terminal escapes (colour, cursor, titles) removed before the rules run: a CLI that colours part of
 * a token splits it in two for every rule. What leaves is text for a model or a page anyway.
 */
const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]{0,4000}(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g;

/** A YAML key naming a secret whose value is a block scalar (`password: |`, `key: >-`) on the lines below. */
const YAML_BLOCK_HEAD = /^([ \t]*)(?:- )?(["']?)([A-Za-z_][\w.-]{0,80})\2[ \t]*:[ \t]*[|>][-+1-9]{0,2}[ \t]*(?:#[^\n]*)?$/gm;

/** Each block scalar under a secret-named key: from its first line's text to its last line's end. */
function* yamlBlocks(text: string): Generator<SecretSpan> {
  const head = new RegExp(YAML_BLOCK_HEAD.source, YAML_BLOCK_HEAD.flags);
  for (let m = head.exec(text); m; m = head.exec(text)) {
    const kind = secretKeyKind(m[3] ?? "");
    if (!kind) continue;
    const indent = (m[1] ?? "").length;
    let at = m.index + m[0].length + 1;
    let start = -1;
    let end = -1;
    // The block is every following line indented deeper than the key (blank lines included).
    while (at < text.length) {
      const nl = text.indexOf("\n", at);
      const lineEnd = nl === -1 ? text.length : nl;
      const line = text.slice(at, lineEnd);
      const lead = /^[ \t]*/.exec(line)?.[0].length ?? 0;
      if (line.trim() !== "") {
        if (lead <= indent) break;
        if (start === -1) start = at + lead;
        end = lineEnd;
      }
      at = lineEnd + 1;
    }
    if (start === -1 || text.startsWith(MARK, start)) continue;
    yield { start, end, kind };
    head.lastIndex = Math.max(head.lastIndex, end);
  }
}

function redactYamlBlocks(text: string): string {
  let out = "";
  let copied = 0;
  for (const b of yamlBlocks(text)) {
    out += `${text.slice(copied, b.start)}${mark(b.kind)}`;
    copied = b.end;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

const RULES = [...BLOCK_RULES, ...TOKEN_RULES, ...CONTEXT_RULES];

/** redact()'s shape passes, in order, each one linear scan; the assignment passes (ASSIGNMENTS) follow. */
const REDACT_PASSES: readonly ((text: string) => string)[] = [redactPem, redactYamlBlocks, ...RULES.map((rule) => (text: string) => applyRule(text, rule))];

/** Scrubs credentials out of free text. Idempotent: scrubbing twice changes nothing more. */
export function redact(text: string): string {
  if (text.length < SHORTEST_SECRET) return text;
  const shaped = REDACT_PASSES.reduce((out, pass) => pass(out), withoutEscapes(text));
  return ASSIGNMENTS.reduce((out, re) => replaceAssignments(out, re), shaped);
}

function withoutEscapes(text: string): string {
  return text.includes("\x1b") ? text.replace(ANSI, "") : text;
}

/**
 * Above this many characters the yielding forms below hand the event loop back between passes: one
 * pass over the 2M-character review limit takes a few milliseconds, all of them ~100 ms, and a
 * server that scrubs for 100 ms answers nobody else meanwhile (docs/design.md, "One event loop").
 */
const YIELD_ABOVE = 64 * 1024;

const toLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The longest the yielding forms run before handing the loop back, inside a pass that finds many assignments. */
const SLICE_MS = 10;

/**
 * secretAssignments(), handing the loop back every SLICE_MS — counted over every match, a key that
 * names no secret included: source text is full of `x = …` that each cost a key check.
 */
async function assignmentsYielding(text: string, re: RegExp): Promise<SecretAssignment[]> {
  const out: SecretAssignment[] = [];
  let since = performance.now();
  for (const a of assignmentScan(text, re)) {
    if (a) out.push(a);
    if (performance.now() - since < SLICE_MS) continue;
    await toLoop();
    since = performance.now();
  }
  return out;
}

/** redact(), the same passes in the same order, with the loop free between them: the same result. */
export async function redactYielding(text: string): Promise<string> {
  if (text.length <= YIELD_ABOVE) return redact(text);
  let out = withoutEscapes(text);
  for (const pass of REDACT_PASSES) {
    await toLoop();
    out = pass(out);
  }
  for (const re of ASSIGNMENTS) out = spliced(out, await assignmentsYielding(out, re));
  return out;
}

/**
 * Text that has been through redact(). The store takes it as it is instead of scrubbing it again —
 * only this module makes one, so holding one is proof (src/store/content.ts).
 */
export class Redacted {
  private constructor(readonly text: string) {}

  toJSON(): string {
    return this.text;
  }

  static async of(text: string): Promise<Redacted> {
    return new Redacted(await redactYielding(text));
  }

  /**
   * Scrubbed parts joined: what the store keeps when it keeps each part scrubbed on its own (a
   * review's material items), so their joined length and hash describe exactly what is stored.
   */
  static joined(parts: readonly Redacted[], separator: string): Redacted {
    return new Redacted(parts.map((p) => p.text).join(separator));
  }
}

/**
 * For a terminal: the escapes stay where they are — they draw the wizard's prompts and colour the
 * log — and the text between them is scrubbed. (redact() drops them, which a terminal would not
 * survive; a token a CLI coloured half of is only caught there.)
 */
export function redactBetweenEscapes(text: string): string {
  if (!text.includes("\x1b")) return redact(text);
  let out = "";
  let at = 0;
  for (const m of text.matchAll(new RegExp(ANSI.source, "g"))) {
    out += `${redact(text.slice(at, m.index))}${m[0]}`;
    at = m.index + m[0].length;
  }
  return out + redact(text.slice(at));
}

/** Scrubs every string inside a JSON-like value; a string under a secret-named key goes whole. */
export function redactDeep<T>(value: T): T {
  return mapStrings(value, (text, key) => {
    const kind = key === undefined ? undefined : secretKeyKind(key);
    return kind !== undefined && key !== undefined && !isNotASecret(text, true, key) ? mark(kind) : redact(text);
  }) as T;
}

/**
 * Maps every string inside a JSON-like value, keeping shared and circular references as they were;
 * `at` sees each string with the object key it sits under (undefined in an array or at the top).
 */
export function mapStrings(value: unknown, at: (text: string, key: string | undefined) => string): unknown {
  return mapWalk(value, undefined, at, new WeakMap());
}

function mapWalk(value: unknown, key: string | undefined, at: (text: string, key: string | undefined) => string, seen: WeakMap<object, unknown>): unknown {
  if (typeof value === "string") return at(value, key);
  if (typeof value !== "object" || value === null) return value;
  // Already scrubbed: every caller of mapStrings redacts, and once is enough (redact() is idempotent).
  if (value instanceof Redacted) return value.text;
  const done = seen.get(value);
  if (done !== undefined) return done;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    seen.set(value, out);
    for (const item of value) out.push(mapWalk(item, undefined, at, seen));
    return out;
  }
  const out: Record<string, unknown> = {};
  seen.set(value, out);
  for (const [k, item] of Object.entries(value)) out[k] = mapWalk(item, k, at, seen);
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
  if (text.includes("\x1b")) return withoutAnsi(text, findSecrets);
  const shaped = FIND_PASSES.reduce((kept: SecretSpan[], pass) => keepFirst(kept, pass(text)), []);
  return ASSIGNMENTS.reduce((kept, re) => keepFirst(kept, assignmentSpans(text, re)), shaped);
}

/** findSecrets(), the same passes in the same order, with the loop free between them (see redactYielding). */
export async function findSecretsYielding(text: string): Promise<SecretSpan[]> {
  if (text.length <= YIELD_ABOVE) return findSecrets(text);
  const clean = text.includes("\x1b") ? stripEscapes(text) : undefined;
  const scanned = clean?.text ?? text;
  let kept: SecretSpan[] = [];
  for (const pass of FIND_PASSES) {
    await toLoop();
    kept = keepFirst(kept, pass(scanned));
  }
  for (const re of ASSIGNMENTS) kept = keepFirst(kept, (await assignmentsYielding(scanned, re)).map(assignmentSpan));
  return clean ? clean.back(kept) : kept;
}

/** The same order as REDACT_PASSES: where two rules cover the same text, the one applied first names it. */
const FIND_PASSES: readonly ((text: string) => SecretSpan[])[] = [
  pemSpans,
  (text) => [...yamlBlocks(text)],
  ...RULES.map((rule) => (text: string) => ruleSpans(text, rule)),
];

/**
 * `kept` (disjoint, in order) plus each span of `next` (one rule's, in order) that overlaps none of
 * them: one merge walk, so a text full of matches costs the number of spans, not its square (a
 * search of `kept` per span made a 2M-character review plan take minutes).
 */
function keepFirst(kept: readonly SecretSpan[], next: readonly SecretSpan[]): SecretSpan[] {
  if (next.length === 0) return [...kept];
  const out: SecretSpan[] = [];
  let i = 0;
  let lastEnd = -1;
  for (const span of next) {
    while (i < kept.length && (kept[i] as SecretSpan).end <= span.start) {
      const k = kept[i++] as SecretSpan;
      out.push(k);
      lastEnd = Math.max(lastEnd, k.end);
    }
    const overlapsNext = i < kept.length && (kept[i] as SecretSpan).start < span.end;
    // lastEnd: a span of this same rule may not overlap one already taken either (a rule's own matches never do).
    if (!overlapsNext && span.start >= lastEnd) {
      out.push(span);
      lastEnd = span.end;
    }
  }
  while (i < kept.length) out.push(kept[i++] as SecretSpan);
  return out;
}

/** The spans found in the text without its terminal escapes, mapped back to the text as given. */
function withoutAnsi(text: string, find: (clean: string) => SecretSpan[]): SecretSpan[] {
  const clean = stripEscapes(text);
  return clean.back(find(clean.text));
}

/** The text without its terminal escapes, and how to map spans in it back to the text as given. */
function stripEscapes(text: string): { text: string; back(spans: readonly SecretSpan[]): SecretSpan[] } {
  const origin: number[] = [];
  let clean = "";
  let at = 0;
  const keep = (until: number) => {
    for (let i = at; i < until; i++) origin.push(i);
    clean += text.slice(at, until);
  };
  for (const m of text.matchAll(new RegExp(ANSI.source, "g"))) {
    keep(m.index);
    at = m.index + m[0].length;
  }
  keep(text.length);
  origin.push(text.length);
  return { text: clean, back: (spans) => spans.map((s) => ({ start: origin[s.start] ?? s.start, end: (origin[s.end - 1] ?? s.end - 1) + 1, kind: s.kind })) };
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
  return [...secretAssignments(text, re)].map(assignmentSpan);
}

/** The value inside its quotes. */
function assignmentSpan(a: SecretAssignment): SecretSpan {
  return { start: a.start + a.open.length, end: a.end - a.close.length, kind: a.kind };
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
