/**
 * A config text as a model may see it (init_preview / init_apply, issue 21): agents' `env` values
 * masked — an env block is where API keys, tokens and database passwords are put — and every other
 * credential shape (URL passwords, key-shaped text) scrubbed. Line by line, so the diff of two masked
 * texts lines up with the diff of the real ones; what is written and staged is the real text.
 */
import { redact } from "../safety/redact.ts";

const ENV_MARK = "[REDACTED:env]";

/** `env:` (YAML block) or `"env": {` (JSON, multi-line): the lines below, deeper in, are its entries. */
const ENV_BLOCK = /^([ \t]*)(?:- )?(["']?)env\2[ \t]*:[ \t]*(\{)?[ \t]*(?:#.*)?$/;
/** `env: { A: x, B: "y" }` anywhere on a line, YAML flow or JSON (`a1: { backend: b, env: { … } }`). */
const ENV_FLOW = /((?<![\w-])(["']?)env\2[ \t]*:[ \t]*\{)([^{}]*)\}/g;
/** One `KEY: value` entry; the value is everything after the colon. */
const ENTRY = /^(?<key>[ \t]*(?:- )?(?:"[^"]*"|'[^']*'|[A-Za-z_][\w.-]*)[ \t]*:[ \t]*)(?<value>\S.*?)(?<comma>,?)[ \t]*$/;
/** Inside a flow map: each value between `key:` and the next `,` or the end. */
const FLOW_VALUE = /((?:"[^"]*"|'[^']*'|[A-Za-z_][\w.-]*)[ \t]*:[ \t]*)("(?:[^"\\]|\\.)*"|'[^']*'|[^,}]+?)(?=[ \t]*(?:,|$))/g;

export function maskConfigText(text: string): string {
  const out: string[] = [];
  let block: { indent: number; json: boolean } | undefined;
  for (const line of text.split("\n")) {
    const indent = /^[ \t]*/.exec(line)?.[0].length ?? 0;
    if (block && line.trim() !== "" && (indent <= block.indent || (block.json && /^[ \t]*\}/.test(line)))) block = undefined;
    if (block) {
      const entry = ENTRY.exec(line)?.groups;
      out.push(entry?.value && !/^[{[]$/.test(entry.value) ? `${entry.key}${block.json ? `"${ENV_MARK}"` : ENV_MARK}${entry.comma}` : line);
      continue;
    }
    const head = ENV_BLOCK.exec(line);
    if (head) block = { indent: (head[1] ?? "").length, json: head[3] === "{" };
    out.push(
      line.replace(ENV_FLOW, (_m, open: string, _q: string, body: string) => `${open}${body.replace(FLOW_VALUE, (_v, key: string) => `${key}"${ENV_MARK}"`)}}`),
    );
  }
  return redact(out.join("\n"));
}
