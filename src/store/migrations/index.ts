/**
 * Every migration, in order, imported as text so `bun build --compile` embeds them in the binary.
 * Append only: a migration that shipped is never edited; its number is its `user_version`.
 */
import init001 from "./001_init.sql" with { type: "text" };
import reviews002 from "./002_reviews.sql" with { type: "text" };
import dashboard003 from "./003_dashboard.sql" with { type: "text" };
import workflows004 from "./004_workflows.sql" with { type: "text" };
import usageRollup005 from "./005_usage_rollup.sql" with { type: "text" };
import asks006 from "./006_asks.sql" with { type: "text" };
import browseIndexes007 from "./007_browse_indexes.sql" with { type: "text" };
import cooldownHeals008 from "./008_cooldown_heals.sql" with { type: "text" };
import quota009 from "./009_quota.sql" with { type: "text" };
import costEstimated010 from "./010_cost_estimated.sql" with { type: "text" };

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: "001_init", sql: init001 },
  { version: 2, name: "002_reviews", sql: reviews002 },
  { version: 3, name: "003_dashboard", sql: dashboard003 },
  { version: 4, name: "004_workflows", sql: workflows004 },
  { version: 5, name: "005_usage_rollup", sql: usageRollup005 },
  { version: 6, name: "006_asks", sql: asks006 },
  { version: 7, name: "007_browse_indexes", sql: browseIndexes007 },
  { version: 8, name: "008_cooldown_heals", sql: cooldownHeals008 },
  { version: 9, name: "009_quota", sql: quota009 },
  { version: 10, name: "010_cost_estimated", sql: costEstimated010 },
];

/** The schema version this binary writes; a database above it came from a newer orchestrate. */
export const SCHEMA_VERSION: number = MIGRATIONS.length;
