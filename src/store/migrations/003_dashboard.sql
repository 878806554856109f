-- 003: the model check of each route attempt (as turns have had since 001), and the indexes the
-- dashboard's windowed aggregates walk, so a plot over a big history reads only its window.
ALTER TABLE attempts ADD COLUMN model_verified TEXT CHECK (model_verified IN ('verified', 'unverified', 'mismatch'));
-- JSON array of the models the CLI reported serving.
ALTER TABLE attempts ADD COLUMN models_reported TEXT;

-- Failure rate per agent over a window: covering, no table reads.
CREATE INDEX attempts_created ON attempts (created_at, agent_id, outcome);
-- Fallback counts over a window read only the attempts that fell back.
CREATE INDEX attempts_fell_back ON attempts (created_at, run_id) WHERE fell_back = 1;
-- Runs and failures per bucket: covering.
CREATE INDEX runs_started_status ON runs (started_at, status);
