-- 010: whether a usage row's cost was estimated from a model's price (its CLI reports tokens but
-- no cost, codex) rather than reported by the CLI. Rows written before it were all reported.
ALTER TABLE usage ADD COLUMN cost_estimated INTEGER NOT NULL DEFAULT 0;
