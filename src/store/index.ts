/**
 * The store's record types in one place: src/store/ is the only module tree that holds SQL.
 * Values (openStore, defaultStorePath, limits) are imported from the file that owns them, so a
 * caller that needs only a path does not load the SQL modules (docs/architecture.md, lazy loading).
 */
export type * from "./runs.ts";
export type * from "./cooldowns.ts";
export type * from "./quota.ts";
export type * from "./consultations.ts";
export type * from "./jobs.ts";
export type * from "./reviews.ts";
export type * from "./workflows.ts";
export type * from "./usage.ts";
export type * from "./asks.ts";
export type * from "./browse/index.ts";
export type * from "./series.ts";
export { ASK_STATUSES } from "./browse/index.ts";
export { SERIES_DIMENSIONS } from "./series.ts";
