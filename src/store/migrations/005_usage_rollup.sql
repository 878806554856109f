-- 005: usage plots over long windows read an hourly rollup instead of every usage row, and the
-- rates beside them walk covering indexes.
--
-- A 90-day plot over 100k runs read ~135k usage rows (and, per tier, joined each to its run):
-- 300–600 ms. Each usage row now carries its run's tier (filled at insert by store/usage.ts, so a
-- tier plot needs no join), and usage_hourly holds one row per hour × source × agent × backend ×
-- tier, kept exact by the two triggers below whoever inserts or deletes usage rows (runs, turns,
-- reviews, and the deletes of consultations and reviews). A window reads its whole hours here and
-- only its partial first hour from usage itself (store/series.ts).

ALTER TABLE usage ADD COLUMN tier TEXT;
UPDATE usage SET tier = (SELECT r.tier FROM runs r WHERE r.id = usage.ref_id) WHERE source = 'attempt';

CREATE TABLE usage_hourly (
  -- Start of the hour, ms since the epoch (a multiple of 3 600 000).
  hour           INTEGER NOT NULL,
  source         TEXT NOT NULL,
  agent_id       TEXT NOT NULL,
  backend        TEXT NOT NULL,
  -- The run's tier for an attempt; '' for none (a turn, a reviewer's run, a run without a tier).
  tier           TEXT NOT NULL,
  calls          INTEGER NOT NULL,
  input_tokens   INTEGER NOT NULL,
  output_tokens  INTEGER NOT NULL,
  -- Sum over the calls that reported a cost; NULL while none did (as sum() over usage gives).
  cost_usd       REAL,
  cost_calls     INTEGER NOT NULL,
  -- Sum, so averages over any number of hours stay exact.
  latency_ms     INTEGER NOT NULL,
  PRIMARY KEY (hour, source, agent_id, backend, tier)
) WITHOUT ROWID;

INSERT INTO usage_hourly (hour, source, agent_id, backend, tier, calls, input_tokens, output_tokens, cost_usd, cost_calls, latency_ms)
SELECT (created_at / 3600000) * 3600000, source, agent_id, backend, coalesce(tier, ''), count(*),
  coalesce(sum(input_tokens), 0), coalesce(sum(output_tokens), 0), sum(cost_usd), count(cost_usd), sum(latency_ms)
FROM usage GROUP BY 1, 2, 3, 4, 5;

CREATE TRIGGER usage_hourly_add AFTER INSERT ON usage BEGIN
  INSERT INTO usage_hourly (hour, source, agent_id, backend, tier, calls, input_tokens, output_tokens, cost_usd, cost_calls, latency_ms)
  VALUES ((NEW.created_at / 3600000) * 3600000, NEW.source, NEW.agent_id, NEW.backend, coalesce(NEW.tier, ''), 1,
    coalesce(NEW.input_tokens, 0), coalesce(NEW.output_tokens, 0), NEW.cost_usd, NEW.cost_usd IS NOT NULL, NEW.latency_ms)
  ON CONFLICT (hour, source, agent_id, backend, tier) DO UPDATE SET
    calls = calls + 1,
    input_tokens = input_tokens + excluded.input_tokens,
    output_tokens = output_tokens + excluded.output_tokens,
    cost_usd = CASE WHEN excluded.cost_usd IS NULL THEN cost_usd ELSE coalesce(cost_usd, 0) + excluded.cost_usd END,
    cost_calls = cost_calls + excluded.cost_calls,
    latency_ms = latency_ms + excluded.latency_ms;
END;

CREATE TRIGGER usage_hourly_remove AFTER DELETE ON usage BEGIN
  UPDATE usage_hourly SET
    calls = calls - 1,
    input_tokens = input_tokens - coalesce(OLD.input_tokens, 0),
    output_tokens = output_tokens - coalesce(OLD.output_tokens, 0),
    cost_usd = CASE WHEN OLD.cost_usd IS NULL THEN cost_usd WHEN cost_calls <= 1 THEN NULL ELSE cost_usd - OLD.cost_usd END,
    cost_calls = cost_calls - (OLD.cost_usd IS NOT NULL),
    latency_ms = latency_ms - OLD.latency_ms
  WHERE hour = (OLD.created_at / 3600000) * 3600000 AND source = OLD.source AND agent_id = OLD.agent_id
    AND backend = OLD.backend AND tier = coalesce(OLD.tier, '');
  DELETE FROM usage_hourly
  WHERE hour = (OLD.created_at / 3600000) * 3600000 AND source = OLD.source AND agent_id = OLD.agent_id
    AND backend = OLD.backend AND tier = coalesce(OLD.tier, '') AND calls <= 0;
END;

-- Failure rate per agent: each agent's window is one range of this covering index, read in order
-- (no sort of every attempt of the window into a GROUP BY).
CREATE INDEX attempts_agent_created ON attempts (agent_id, created_at, outcome);
-- Fallback counts join each fell-back attempt to its run's start: covering, one b-tree per lookup.
CREATE INDEX runs_id_started ON runs (id, started_at);

-- The overview's "needs attention" count reads only those workflows.
CREATE INDEX workflows_attention ON workflows (status) WHERE status = 'needs_attention';
