/** The store's public surface: the only module tree that holds SQL. */
export { openStore, BUSY_TIMEOUT_MS, type Store, type StoreErrorCode, type OpenStoreOptions } from "./db.ts";
export { defaultStorePath } from "./paths.ts";
export type { ContentPolicy } from "./content.ts";
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
export { HEAD_CHARS, ASK_STATUSES } from "./browse/index.ts";
export { SERIES_DIMENSIONS } from "./series.ts";
export { PARTIAL_TAIL_CHARS } from "./jobs.ts";
export { SCHEMA_VERSION } from "./migrations/index.ts";
