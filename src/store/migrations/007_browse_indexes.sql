-- 007: indexes for the dashboard's keyset paging, so every listing and every filter it offers is an
-- index search that starts at the page's bound: page 1000 costs what page 1 does.
--
-- A listing pages by `(sort_key, id) < (?, ?)` newest first. SQLite seeks to that row value only on
-- an index holding both columns in the listing's order; an index on the time alone (001-004) keeps
-- ties on the time in rowid order, so the id half of the bound became a filter after a walk from
-- the top. Those single-column indexes are rebuilt under the same names with the id added (every
-- query that used the time alone still can). A filter gets its own (filter, time, id) index; the
-- agent filter on runs reads attempts by their primary key from the runs_started walk instead.
-- IF [NOT] EXISTS: a store whose user_version was set back re-runs this cleanly.

DROP INDEX IF EXISTS consultations_updated;
CREATE INDEX IF NOT EXISTS consultations_updated ON consultations (updated_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS consultations_agent_updated ON consultations (agent_id, updated_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS consultations_status_updated ON consultations (status, updated_at DESC, id DESC);

DROP INDEX IF EXISTS jobs_created;
CREATE INDEX IF NOT EXISTS jobs_created ON jobs (created_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS jobs_status_created ON jobs (status, created_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS jobs_kind_created ON jobs (kind, created_at DESC, id DESC);

DROP INDEX IF EXISTS reviews_updated;
CREATE INDEX IF NOT EXISTS reviews_updated ON reviews (updated_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS reviews_status_updated ON reviews (status, updated_at DESC, id DESC);

DROP INDEX IF EXISTS workflows_updated;
CREATE INDEX IF NOT EXISTS workflows_updated ON workflows (updated_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS workflows_status_updated ON workflows (status, updated_at DESC, id DESC);

-- runs_started (001) already holds (started_at DESC, id DESC).
CREATE INDEX IF NOT EXISTS runs_status_started ON runs (status, started_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS runs_tier_started ON runs (tier, started_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS runs_tool_started ON runs (tool, started_at DESC, id DESC);
