/**
 * Path → page. Only reached after the guard passed. Each page is a function of the store and the
 * query string; the time spent building it goes out as `Server-Timing: app;dur=…` (the bench
 * reads it: the server's own time, without the client's).
 */
import style from "./assets/style.css" with { type: "text" };
import liveScript from "./assets/live.js.txt" with { type: "text" };
import type { DashboardContext } from "./context.ts";
import { SECURITY_HEADERS } from "./guard.ts";
import { html, type Html } from "./html.ts";
import { page } from "./layout.ts";
import { eventStream } from "./live.ts";
import { askPage, asksPage } from "./pages/asks.ts";
import { consultationPage, consultationsPage } from "./pages/consultations.ts";
import { jobPage, jobsPage } from "./pages/jobs.ts";
import { overviewPage } from "./pages/overview.ts";
import { reviewPage, reviewsPage } from "./pages/reviews.ts";
import { runPage } from "./pages/run.ts";
import { runsPage } from "./pages/runs.ts";
import { usagePage } from "./pages/usage.ts";
import { workflowPage, workflowsPage } from "./pages/workflows.ts";

/** Editable mode plugs its pages in here (GET form, POST save); absent in read-only mode. */
export type EditHandler = (req: Request, url: URL, ctx: DashboardContext) => Promise<Response | undefined>;

const ASSETS: Record<string, { body: string; type: string }> = {
  "/assets/style.css": { body: style, type: "text/css; charset=utf-8" },
  "/assets/live.js": { body: liveScript, type: "text/javascript; charset=utf-8" },
};

type PageFn = (ctx: DashboardContext, params: URLSearchParams) => Html;
type DetailFn = (ctx: DashboardContext, id: string) => Html | undefined;

const PAGES: Record<string, PageFn> = {
  "/": overviewPage,
  "/runs": runsPage,
  "/consultations": consultationsPage,
  "/asks": asksPage,
  "/jobs": jobsPage,
  "/usage": usagePage,
  "/reviews": reviewsPage,
  "/workflows": workflowsPage,
};

const DETAILS: [RegExp, DetailFn][] = [
  [/^\/runs\/([\w-]+)$/, runPage],
  [/^\/consultations\/([\w-]+)$/, consultationPage],
  [/^\/asks\/([\w-]+)$/, askPage],
  [/^\/jobs\/([\w-]+)$/, jobPage],
  [/^\/reviews\/([\w-]+)$/, reviewPage],
  [/^\/workflows\/([\w-]+)$/, workflowPage],
];

export function htmlResponse(body: Html, status = 200, started?: number): Response {
  const timing = started === undefined ? {} : { "server-timing": `app;dur=${(performance.now() - started).toFixed(2)}` };
  return new Response(body.value, { status, headers: { ...SECURITY_HEADERS, ...timing, "content-type": "text/html; charset=utf-8" } });
}

function notFound(ctx: DashboardContext, what: string): Response {
  return htmlResponse(
    page({
      title: "Not found",
      section: "",
      body: html`<p class="empty">${what}</p><p><a href="/">Overview</a></p>`,
      live: false,
      editable: ctx.managedPath !== undefined,
    }),
    404,
  );
}

function pageFor(ctx: DashboardContext, url: URL): Html | undefined | null {
  const list = PAGES[url.pathname];
  if (list) return list(ctx, url.searchParams);
  for (const [pattern, detail] of DETAILS) {
    const id = pattern.exec(url.pathname)?.[1];
    if (id) return detail(ctx, id) ?? null;
  }
  return undefined;
}

export async function route(req: Request, ctx: DashboardContext, edit?: EditHandler): Promise<Response> {
  const started = performance.now();
  const url = new URL(req.url);
  const asset = ASSETS[url.pathname];
  if (asset) return new Response(asset.body, { headers: { ...SECURITY_HEADERS, "content-type": asset.type } });
  if (url.pathname === "/events") return eventStream(() => `${ctx.rt.store.browse.dataVersion()}.${ctx.doctor.version()}`, req.signal, SECURITY_HEADERS);
  if (edit && url.pathname.startsWith("/edit/")) return (await edit(req, url, ctx)) ?? notFound(ctx, "No such editor page.");
  const body = pageFor(ctx, url);
  if (body === null) return notFound(ctx, `Nothing with id ${url.pathname.split("/").pop() ?? ""} is stored.`);
  if (body === undefined) return notFound(ctx, `No page at ${url.pathname}.`);
  return htmlResponse(body, 200, started);
}
