/**
 * How long a call may stay synchronous before it turns itself into a job and answers with the id.
 * MCP clients give up on a request after a ceiling (the SDK's default is 60 s; Codex's tool timeout
 * defaults to 60 s too), so the default stays safely under it. Configurable: syncBudgetSec in the
 * config or ORCHESTRATE_SYNC_BUDGET_S in the server's environment.
 */
const DEFAULT_SEC = 50;

/** Known clients whose ceilings differ from the SDK default, by clientInfo.name. */
const BY_CLIENT: [RegExp, number][] = [
  [/^claude[- ]code$/i, 50],
  [/^codex/i, 50],
  [/copilot/i, 50],
];

export function syncBudgetSec(env: Record<string, string | undefined>, configured: number | undefined, clientName: string | undefined): number {
  const fromEnv = Number(env.ORCHESTRATE_SYNC_BUDGET_S);
  if (Number.isFinite(fromEnv) && fromEnv > 0) return fromEnv;
  if (configured !== undefined) return configured;
  const match = clientName ? BY_CLIENT.find(([re]) => re.test(clientName)) : undefined;
  return match?.[1] ?? DEFAULT_SEC;
}
