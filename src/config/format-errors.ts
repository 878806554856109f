/**
 * One line per bad key: `<path.to.key>: <what is wrong> (<how to fix>)`. Works on the plain
 * fields of arktype's errors so this module never imports arktype itself.
 */

/** The fields of an arktype error this module reads. */
export interface SchemaIssue {
  path: readonly PropertyKey[];
  code: string;
  expected?: string;
  actual?: string;
  problem: string;
}

export function errorLine(path: string, what: string, fix: string): string {
  return `${path || "(top level)"}: ${what} (${fix})`;
}

/** `["agents", "a", "limits", "maxTurns"]` → `agents.a.limits.maxTurns`; indices → `[2]`. */
export function joinPath(parts: readonly PropertyKey[]): string {
  let out = "";
  for (const part of parts) {
    if (typeof part === "number") out += `[${part}]`;
    else if (typeof part === "string" && /^[A-Za-z0-9_$-]+$/.test(part)) out += out ? `.${part}` : part;
    else out += `[${JSON.stringify(String(part))}]`;
  }
  return out;
}

function normalizeKey(key: string): string {
  return key.toLowerCase().replace(/[_-]/g, "");
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0] ?? 0;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j] ?? 0;
      row[j] = Math.min(cur + 1, (row[j - 1] ?? 0) + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length] ?? 0;
}

/** The known key a typo most likely meant, if any is close enough. */
export function closestKey(key: string, known: readonly string[]): string | undefined {
  const wanted = normalizeKey(key);
  const exact = known.find((k) => normalizeKey(k) === wanted);
  if (exact) return exact;
  let best: { key: string; distance: number } | undefined;
  for (const k of known) {
    const distance = editDistance(wanted, normalizeKey(k));
    if (distance <= 2 && (!best || distance < best.distance)) best = { key: k, distance };
  }
  return best?.key;
}

export function unknownKeyLine(path: string, key: string, known: readonly string[], moved?: string): string {
  if (moved) return errorLine(path, "unknown key", moved);
  const guess = closestKey(key, known);
  const list = known.length > 0 ? `known keys: ${known.join(", ")}` : "this object takes no keys";
  const fix = guess ? `did you mean ${guess}? ${list}` : `remove it; ${list}`;
  return errorLine(path, "unknown key", fix);
}

/** arktype prefixes a union's problem with the path; the line already starts with it. */
function stripPath(problem: string, path: string): string {
  return path && problem.startsWith(`${path} `) ? problem.slice(path.length + 1) : problem;
}

function fixFor(issue: SchemaIssue, key: string): string {
  const expected = issue.expected ?? "a valid value";
  // arktype reports a boolean as a union of true | false, with the path inside `expected`.
  if (expected === "boolean" || /must be boolean/.test(issue.problem)) return "write true or false";
  switch (issue.code) {
    case "required":
      return `add ${key}: ${expected}`;
    case "minLength":
      return "write a non-empty value or remove the key";
    case "maxLength":
      return `keep ${expected.replace(/^at most length /, "at most ")} items`;
    case "min":
    case "max":
    case "exclusiveMin":
    case "exclusiveMax":
    case "divisor":
      return `use a value that is ${expected}`;
    case "domain":
    case "proto":
      return `write ${expected} here`;
    default:
      return expected.includes('"') ? "use one of the values listed" : `write ${expected}`;
  }
}

export interface FormatOptions {
  /** Prepended to every path (inline entries are validated on their own). */
  prefix?: readonly PropertyKey[];
  /** Known keys of the object at a path relative to the validated value. */
  knownKeys: (relPath: readonly PropertyKey[]) => readonly string[];
  /** Fix text for keys that moved elsewhere, by full dotted path. */
  moved?: Readonly<Record<string, string>>;
}

export function formatIssue(issue: SchemaIssue, opts: FormatOptions): string {
  const full = [...(opts.prefix ?? []), ...issue.path];
  const path = joinPath(full);
  const key = String(issue.path.at(-1) ?? "");
  if (issue.code === "predicate" && issue.expected === "removed") {
    return unknownKeyLine(path, key, opts.knownKeys(issue.path.slice(0, -1)), opts.moved?.[path]);
  }
  if (issue.code === "required") return errorLine(path, "missing", fixFor(issue, key));
  const what = stripPath(issue.problem, path);
  return errorLine(path, what, fixFor(issue, key));
}

export function formatIssues(issues: Iterable<SchemaIssue>, opts: FormatOptions): string[] {
  const lines: string[] = [];
  for (const issue of issues) lines.push(formatIssue(issue, opts));
  return lines;
}
