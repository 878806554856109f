/**
 * HTML built by one tagged template that scrubs and escapes every interpolated value. Everything the
 * pages show comes from the store (prompts, answers, error text a CLI printed), so nothing reaches
 * the page unescaped unless it is itself an `Html` made here — and nothing unscrubbed: this is the
 * dashboard's egress point (safety/egress.ts is the others'). Scrubbing comes before escaping, on
 * the text as stored, since the rules read quotes that escaping would turn into entities.
 */
import { redact } from "../safety/redact.ts";

export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export type Part = string | number | Html | readonly Part[] | null | undefined | false;

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text into HTML: scrubbed, then escaped. Every store text reaches a page through here (render, chart.ts). */
export function escapeHtml(text: string): string {
  return redact(text).replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

function render(part: Part): string {
  if (part === null || part === undefined || part === false) return "";
  if (part instanceof Html) return part.value;
  if (Array.isArray(part)) return part.map(render).join("");
  return typeof part === "number" ? String(part) : escapeHtml(String(part));
}

export function html(strings: TemplateStringsArray, ...parts: Part[]): Html {
  let out = strings[0] ?? "";
  parts.forEach((part, i) => {
    out += render(part) + (strings[i + 1] ?? "");
  });
  return new Html(out);
}

/** Markup this module's callers built themselves (the SVG plots); never store text. */
export function trusted(markup: string): Html {
  return new Html(markup);
}

/** A query string from the non-empty values, for links that keep the current filters. */
export function query(params: Record<string, string | number | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== "") search.set(k, String(v));
  const text = search.toString();
  return text ? `?${text}` : "";
}
