/**
 * How long a call may stay synchronous before it turns itself into a job and answers with the id.
 * MCP clients give up on a request after a ceiling (the SDK's default is 60 s; Codex's tool timeout
 * defaults to 60 s too), so the default stays safely under it. Configurable: syncBudgetSec in the
 * config or ORCHESTRATE_SYNC_BUDGET_S in the server's environment.
 */
import { adapters, BACKENDS } from "../../backends/index.ts";

const DEFAULT_SEC = 50;
/** Room left under a client's ceiling for the reply to travel. */
const MARGIN_SEC = 10;

export function syncBudgetSec(env: Record<string, string | undefined>, configured: number | undefined, clientName: string | undefined): number {
  const fromEnv = Number(env.ORCHESTRATE_SYNC_BUDGET_S);
  if (Number.isFinite(fromEnv) && fromEnv > 0) return fromEnv;
  if (configured !== undefined) return configured;
  // A known client (each backend names its CLI's clientInfo and ceiling) keeps under its own ceiling.
  const client = clientName ? BACKENDS.map((b) => adapters[b].client).find((c) => c?.names.test(clientName)) : undefined;
  return client?.requestTimeoutSec ? Math.min(DEFAULT_SEC, client.requestTimeoutSec - MARGIN_SEC) : DEFAULT_SEC;
}
