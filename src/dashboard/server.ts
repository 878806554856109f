/**
 * `orchestrate dashboard`: Bun.serve on 127.0.0.1 and nowhere else — the bind address is not an
 * option, so no flag or config can widen it — over the store opened read-only. A fresh random
 * token per process goes into the printed URL; the guard turns it into a cookie.
 */
import { randomBytes } from "node:crypto";
import { redact } from "../safety/redact.ts";
import { SECURITY_HEADERS, guard } from "./guard.ts";
import { doctorCache, type DashboardContext } from "./context.ts";
import { route, type EditHandler } from "./routes.ts";
import type { Runtime } from "../services/shared/runtime.ts";

export const BIND_ADDRESS = "127.0.0.1";

export interface DashboardOptions {
  rt: Runtime;
  /** 0 picks a free port. */
  port: number;
  /** Editable mode: where the agent editor writes, and its handler. */
  managedPath?: string;
  edit?: EditHandler;
}

export interface Dashboard {
  url: string;
  port: number;
  token: string;
  ctx: DashboardContext;
  stop(): Promise<void>;
}

/**
 * Plain-text answers (the editor's refusals) scrubbed on their way out; HTML is scrubbed as it is
 * built (html.ts escapeHtml), and the event stream carries store versions only.
 */
async function scrubbedText(response: Response): Promise<Response> {
  if (!response.headers.get("content-type")?.startsWith("text/plain")) return response;
  return new Response(redact(await response.text()), { status: response.status, headers: response.headers });
}

export function startDashboard(o: DashboardOptions): Dashboard {
  // Prefixed as orchestrate's own tokens are, so the scrubber lets the printed URL through (safety/redact.ts OWN_TOKEN).
  const token = `dsh_${randomBytes(24).toString("base64url")}`;
  const ctx: DashboardContext = { rt: o.rt, doctor: doctorCache(o.rt), token, ...(o.managedPath ? { managedPath: o.managedPath } : {}) };
  const editable = o.managedPath !== undefined && o.edit !== undefined;
  let port = o.port;
  const server = Bun.serve({
    hostname: BIND_ADDRESS,
    port: o.port,
    // The live stream sends a heartbeat every 5 s; anything quieter than this is gone.
    idleTimeout: 30,
    fetch: async (req) => {
      const verdict = guard(req, { token, port, editable });
      if (!verdict.pass) return verdict.response;
      try {
        return await scrubbedText(await route(req, ctx, editable ? o.edit : undefined));
      } catch (error) {
        const reason = redact(error instanceof Error ? error.message : String(error));
        return new Response(`The dashboard failed on this page: ${reason}\n`, {
          status: 500,
          headers: { ...SECURITY_HEADERS, "content-type": "text/plain; charset=utf-8" },
        });
      }
    },
  });
  port = server.port ?? o.port;
  return {
    url: `http://${BIND_ADDRESS}:${port}/?token=${token}`,
    port,
    token,
    ctx,
    stop: async () => {
      await server.stop(true);
      o.rt.store.close();
    },
  };
}
