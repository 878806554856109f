/**
 * The dashboard's front door, decided before any page code runs. What it serves is every prompt
 * and answer ever stored, so: loopback Host only (a DNS-rebinding page names its own host), GET and
 * HEAD only (POST only in editable mode, only to /edit/, only same-origin), and a per-process token
 * — from the printed URL once, then an HttpOnly SameSite=Strict cookie. Pure: Request in, verdict out.
 */
import { timingSafeEqual } from "node:crypto";

export interface GuardSettings {
  token: string;
  port: number;
  editable: boolean;
}

export type Verdict = { pass: true } | { pass: false; response: Response };

const LOOPBACK_NAMES = new Set(["127.0.0.1", "localhost", "[::1]"]);

/** Headers on every response, refusals included. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
  "cache-control": "no-store",
};

export function cookieName(port: number): string {
  // Cookies ignore the port: two dashboards on one machine must not overwrite each other's.
  return `orchestrate_dashboard_${port}`;
}

export function sameToken(given: string | null | undefined, token: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function refuse(status: number, text: string, extra: Record<string, string> = {}): Verdict {
  return {
    pass: false,
    response: new Response(`${text}\n`, { status, headers: { ...SECURITY_HEADERS, "content-type": "text/plain; charset=utf-8", ...extra } }),
  };
}

/** `Host: 127.0.0.1:PORT` (or localhost / [::1]) and nothing else. */
export function loopbackHost(host: string | null, port: number): boolean {
  if (!host) return false;
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(host.toLowerCase());
  if (!match) return false;
  return LOOPBACK_NAMES.has(match[1] ?? "") && Number(match[2] ?? 80) === port;
}

function cookieToken(req: Request, port: number): string | undefined {
  const header = req.headers.get("cookie") ?? "";
  const name = cookieName(port);
  for (const part of header.split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) return v.join("=");
  }
  return undefined;
}

/** A write must come from a page this dashboard served: its Origin, and the browser's own word. */
function sameOrigin(req: Request): boolean {
  const origin = req.headers.get("origin");
  const host = req.headers.get("host");
  if (!origin || !host || origin !== `http://${host}`) return false;
  const site = req.headers.get("sec-fetch-site");
  return site === null || site === "same-origin";
}

function methodVerdict(req: Request, url: URL, s: GuardSettings): Verdict {
  if (req.method === "GET" || req.method === "HEAD") return { pass: true };
  if (req.method === "POST" && s.editable && url.pathname.startsWith("/edit/")) {
    return sameOrigin(req) ? { pass: true } : refuse(403, "Refused: a change must come from this dashboard's own page (same origin).");
  }
  return refuse(405, s.editable ? "Only GET, and POST to /edit/ from this dashboard's pages." : "Read-only dashboard: only GET and HEAD.", {
    allow: "GET, HEAD",
  });
}

export function guard(req: Request, s: GuardSettings): Verdict {
  if (!loopbackHost(req.headers.get("host"), s.port)) return refuse(421, "Refused: this dashboard answers only to 127.0.0.1 / localhost.");
  const url = new URL(req.url);
  const method = methodVerdict(req, url, s);
  if (!method.pass) return method;
  const fromUrl = url.searchParams.get("token");
  if (sameToken(fromUrl, s.token)) return { pass: false, response: admit(url, s) };
  if (sameToken(cookieToken(req, s.port), s.token)) return { pass: true };
  return refuse(401, "This dashboard needs the token from the URL `orchestrate dashboard` printed. Open that URL.");
}

/**
 * The token moves from the URL (history, screenshots) into a cookie, and the URL loses it. The
 * redirect stays on this origin: a path asked for as `//evil.example/x` would otherwise go out as
 * a protocol-relative Location, which a browser follows to that host.
 */
function admit(url: URL, s: GuardSettings): Response {
  url.searchParams.delete("token");
  const target = `/${url.pathname.replace(/^[/\\]+/, "")}${url.search}`;
  return new Response(null, {
    status: 303,
    headers: {
      ...SECURITY_HEADERS,
      location: target,
      "set-cookie": `${cookieName(s.port)}=${s.token}; HttpOnly; SameSite=Strict; Path=/`,
    },
  });
}
