/** Keyset paging shared by the dashboard's listings (browse.ts, browse-workflows.ts). */

export interface Page<T> {
  rows: T[];
  /** The id to pass as `before` for the next page; absent on the last page. */
  next?: string;
}

const MAX_LIMIT = 200;

export const clampLimit = (limit: number | undefined): number => Math.min(MAX_LIMIT, Math.max(1, limit ?? 50));

export type Params = Record<string, string | number | null>;

/** Fetches one row more than asked: its presence says there is a next page. */
export function paged<S, T>(rows: S[], limit: number, map: (row: S) => T, idOf: (row: T) => string): Page<T> {
  const mapped = rows.slice(0, limit).map(map);
  const last = mapped.at(-1);
  return rows.length > limit && last ? { rows: mapped, next: idOf(last) } : { rows: mapped };
}
