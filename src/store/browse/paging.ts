/** Keyset paging shared by the dashboard's listings (browse*.ts). */

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

/** No `before` (or an unknown one) is a bound above every row: the first page. */
const AFTER_EVERYTHING = Number.MAX_SAFE_INTEGER;

/**
 * The page bound as one row value, `(time, id) < (the before row's time, id)`, instead of "before
 * IS NULL OR" over a joined row: SQLite seeks an index holding (time DESC, id DESC) straight to
 * the bound, so page 1000 costs what page 1 does (the OR form walked every newer row first).
 * Fixed fragments only; `before` is bound.
 */
export function beforeBound(table: string, alias: string, time: string): string {
  return `(${alias}.${time}, ${alias}.id) < (SELECT coalesce(max(${time}), ${AFTER_EVERYTHING}), coalesce(max(id), '~') FROM ${table} WHERE id = $before)`;
}

/**
 * The filter's given values as bound parameters, and only those: each filter combination is its
 * own SQL naming only its own conditions (a "$x IS NULL OR" form is planned once for every value
 * and walks the unfiltered index), and a parameter the SQL does not name is an error.
 */
export function filterParams(filter: Readonly<Record<string, string | undefined>>): Params {
  return Object.fromEntries(Object.entries(filter).filter((e): e is [string, string] => typeof e[1] === "string" && e[1] !== ""));
}

/** `WHERE` over the conditions a filter names, joined by AND. */
export const whereAll = (conditions: readonly string[]): string => `WHERE ${conditions.join(" AND ")}`;
