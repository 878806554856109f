/** How times, durations, tokens and money read on the pages. Pure, locale-free (UTC), tested. */

export function when(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return "—";
  return new Date(ms).toISOString().replace("T", " ").slice(0, 19);
}

export function duration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return "—";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const min = Math.floor(ms / 60_000);
  return `${min} min ${Math.round((ms % 60_000) / 1000)} s`;
}

export function tokens(n: number | null | undefined): string {
  if (n === null || n === undefined) return "—";
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(1)}k`;
  return `${(n / 1_000_000).toFixed(2)}M`;
}

export function usd(n: number | null | undefined): string {
  if (n === null || n === undefined) return "—";
  if (n === 0) return "$0";
  return n < 0.01 ? `$${n.toFixed(4)}` : `$${n.toFixed(2)}`;
}

export function percent(part: number, whole: number): string {
  if (whole === 0) return "—";
  return `${((100 * part) / whole).toFixed(1)}%`;
}

/** Time until `ms` from `now`, for cooldowns. */
export function until(ms: number, now: number): string {
  return ms <= now ? "over" : `${duration(ms - now)} left`;
}

/**
 * A path under the person's home shown as `~/…`: shorter in a table, and a screenshot of the page
 * (docs/dashboard/) does not carry the machine's user name or layout.
 */
export function homeRelative(path: string, home: string | undefined): string {
  if (!home || home === "/") return path;
  const base = home.endsWith("/") ? home.slice(0, -1) : home;
  if (path === base) return "~";
  return path.startsWith(`${base}/`) ? `~${path.slice(base.length)}` : path;
}
