/** The page shell: one stylesheet and one script, both served by this dashboard itself. */
import { html, type Html, type Part } from "./html.ts";

const NAV: readonly [string, string][] = [
  ["/", "Overview"],
  ["/runs", "Runs"],
  ["/consultations", "Consultations"],
  ["/asks", "Asks"],
  ["/jobs", "Jobs"],
  ["/reviews", "Reviews"],
  ["/workflows", "Workflows"],
  ["/usage", "Usage"],
];

export interface PageOptions {
  title: string;
  /** Which nav entry is current. */
  section: string;
  body: Part;
  /** Refresh the body when the store changes (off for forms). */
  live?: boolean;
  editable?: boolean;
}

export function page(o: PageOptions): Html {
  const nav = [...NAV, ...(o.editable ? ([["/edit/agents", "Agents (edit)"]] as const) : [])];
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${o.title} · orchestrate</title>
<link rel="stylesheet" href="/assets/style.css">
<script src="/assets/live.js" defer></script>
</head>
<body>
<header>
<span class="brand">orchestrate</span>
<nav>${nav.map(([href, label]) => html`<a href="${href}"${o.section === href ? html` aria-current="page"` : ""}>${label}</a>`)}</nav>
<span id="live" class="live" title="Updates while runs are in progress">${o.live === false ? "static" : "…"}</span>
</header>
<main id="main"${o.live === false ? "" : html` data-live="1"`}>
<h1>${o.title}</h1>
${o.body}
</main>
<footer>127.0.0.1 only · read-only database${o.editable ? " · editable: writes only the managed file" : ""}</footer>
</body>
</html>
`;
}

/** A small table from rows of cells; `head` is the header row. Wide ones scroll inside their own box, never the page. */
export function table(head: readonly string[], rows: readonly Part[][], cls = ""): Html {
  return html`<div class="wrap"><table class="${cls}"><thead><tr>${head.map((h) => html`<th>${h}</th>`)}</tr></thead><tbody>${rows.map((r) => html`<tr>${r.map((c) => html`<td>${c}</td>`)}</tr>`)}</tbody></table></div>`;
}

/** A status word as a coloured badge. */
export function badge(text: string, kind?: string): Html {
  return html`<span class="badge b-${kind ?? text}">${text}</span>`;
}

export function empty(text: string): Html {
  return html`<p class="empty">${text}</p>`;
}
