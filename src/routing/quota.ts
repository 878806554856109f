/**
 * What an agent's reported quota means for routing (docs/design.md, "Quota"). Pure: the windows
 * and the clock come in. A window past its reset says nothing any more.
 */
export interface QuotaWindow {
  window: string;
  state: "ok" | "warning" | "exhausted";
  usedPercent?: number;
  /** Epoch ms. */
  resetsAt?: number;
}

export type QuotaVerdict = { kind: "exhausted"; window: string; until: number } | { kind: "warning"; window: string; usedPercent?: number; resetsAt?: number };

/** Exhausted beats warning; an exhausted window with no reset time is treated as a warning (nothing says when to try again). */
export function quotaVerdict(windows: readonly QuotaWindow[], warnPercent: number, now: number): QuotaVerdict | undefined {
  const live = windows.filter((w) => w.resetsAt === undefined || w.resetsAt > now);
  const exhausted = live.filter((w) => w.state === "exhausted" && w.resetsAt !== undefined).sort((a, b) => (b.resetsAt ?? 0) - (a.resetsAt ?? 0))[0];
  if (exhausted?.resetsAt !== undefined) return { kind: "exhausted", window: exhausted.window, until: exhausted.resetsAt };
  const warned = live.find((w) => w.state !== "ok" || (w.usedPercent !== undefined && w.usedPercent >= warnPercent));
  if (!warned) return undefined;
  return {
    kind: "warning",
    window: warned.window,
    ...(warned.usedPercent !== undefined ? { usedPercent: warned.usedPercent } : {}),
    ...(warned.resetsAt !== undefined ? { resetsAt: warned.resetsAt } : {}),
  };
}

export function clock(ms: number): string {
  return `${new Date(ms).toISOString().slice(11, 19)} UTC`;
}

/** "five_hour 92 % used, resets 14:00:00 UTC (3600 s)" */
export function describeQuota(v: QuotaVerdict, now: number): string {
  if (v.kind === "exhausted") return `${v.window} exhausted until ${clock(v.until)} (${Math.ceil((v.until - now) / 1000)} s)`;
  const used = v.usedPercent !== undefined ? ` ${v.usedPercent} % used` : " at its warning state";
  const resets = v.resetsAt !== undefined ? `, resets ${clock(v.resetsAt)} (${Math.ceil((v.resetsAt - now) / 1000)} s)` : "";
  return `${v.window}${used}${resets}`;
}

/** The one window that speaks for an agent: the routing verdict's, else the most used one still in force. */
export interface QuotaHeadline {
  state: "ok" | "warning" | "exhausted";
  window: string;
  usedPercent?: number;
  /** Epoch ms. */
  resetsAt?: number;
}

export function quotaHeadline(windows: readonly QuotaWindow[], warnPercent: number, now: number): QuotaHeadline | undefined {
  const live = windows.filter((w) => w.resetsAt === undefined || w.resetsAt > now);
  const verdict = quotaVerdict(live, warnPercent, now);
  if (verdict?.kind === "exhausted") {
    const used = live.find((w) => w.window === verdict.window)?.usedPercent;
    return { state: "exhausted", window: verdict.window, resetsAt: verdict.until, ...(used !== undefined ? { usedPercent: used } : {}) };
  }
  if (verdict) {
    const { usedPercent, resetsAt } = verdict;
    return { state: "warning", window: verdict.window, ...(usedPercent !== undefined ? { usedPercent } : {}), ...(resetsAt !== undefined ? { resetsAt } : {}) };
  }
  const top = [...live].sort((a, b) => (b.usedPercent ?? 0) - (a.usedPercent ?? 0))[0];
  if (!top) return undefined;
  return {
    state: "ok",
    window: top.window,
    ...(top.usedPercent !== undefined ? { usedPercent: top.usedPercent } : {}),
    ...(top.resetsAt !== undefined ? { resetsAt: top.resetsAt } : {}),
  };
}

/**
 * The line list_agents and `orchestrate check` show: the routing verdict when there is one
 * ("warning: five_hour 92 % used, resets …"), else the most used window still in force.
 */
export function quotaSummary(windows: readonly QuotaWindow[], warnPercent: number, now: number): string | undefined {
  const live = windows.filter((w) => w.resetsAt === undefined || w.resetsAt > now);
  const verdict = quotaVerdict(live, warnPercent, now);
  if (verdict) return `${verdict.kind === "exhausted" ? "" : "warning: "}${describeQuota(verdict, now)}`;
  const top = quotaHeadline(live, warnPercent, now);
  if (!top) return undefined;
  const used = top.usedPercent !== undefined ? ` ${top.usedPercent} % used` : "";
  const resets = top.resetsAt !== undefined ? `, resets ${clock(top.resetsAt)} (${Math.ceil((top.resetsAt - now) / 1000)} s)` : "";
  return `ok: ${top.window}${used}${resets}`;
}
