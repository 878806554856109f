-- 002: reviews (seed 001): a plan and its one-time token, each reviewer's run, the findings with
-- their dispositions, and the host's synthesis. Every text is redacted before insert; content
-- columns (goal, material, claims, replies, synthesis) are NULL under store_full_content: false.
--
-- jobs and usage lose their CHECK on kind / source: the closed sets are JobKind (store/jobs.ts)
-- and UsageRow.source (store/usage.ts), and a CHECK here would cost a table rebuild every time a
-- tool group gains a job kind. SQLite cannot alter a CHECK, so both tables are rebuilt once, here.

CREATE TABLE jobs_002 (
  id                TEXT PRIMARY KEY,
  kind              TEXT NOT NULL,
  status            TEXT NOT NULL CHECK (status IN ('running', 'ok', 'failed', 'cancelled')),
  owner_pid         INTEGER NOT NULL,
  owner_started_at  INTEGER NOT NULL,
  args_json         TEXT NOT NULL,
  progress          TEXT,
  partial_output    TEXT,
  partial_len       INTEGER NOT NULL DEFAULT 0,
  result_json       TEXT,
  error_code        TEXT,
  error_message     TEXT,
  tree_changed      INTEGER CHECK (tree_changed IN (0, 1)),
  created_at        INTEGER NOT NULL,
  updated_at        INTEGER NOT NULL
);
INSERT INTO jobs_002 (id, kind, status, owner_pid, owner_started_at, args_json, progress, partial_output, partial_len,
  result_json, error_code, error_message, tree_changed, created_at, updated_at)
SELECT id, kind, status, owner_pid, owner_started_at, args_json, progress, partial_output, partial_len,
  result_json, error_code, error_message, tree_changed, created_at, updated_at FROM jobs;
DROP TABLE jobs;
ALTER TABLE jobs_002 RENAME TO jobs;
CREATE INDEX jobs_running ON jobs (status) WHERE status = 'running';
CREATE INDEX jobs_created ON jobs (created_at DESC);

CREATE TABLE usage_002 (
  id                   INTEGER PRIMARY KEY,
  source               TEXT NOT NULL,
  ref_id               TEXT NOT NULL,
  ref_n                INTEGER NOT NULL,
  agent_id             TEXT NOT NULL,
  backend              TEXT NOT NULL,
  model                TEXT,
  input_tokens         INTEGER,
  output_tokens        INTEGER,
  cached_input_tokens  INTEGER,
  cost_usd             REAL,
  latency_ms           INTEGER NOT NULL,
  created_at           INTEGER NOT NULL
);
INSERT INTO usage_002 SELECT id, source, ref_id, ref_n, agent_id, backend, model, input_tokens, output_tokens,
  cached_input_tokens, cost_usd, latency_ms, created_at FROM usage;
DROP TABLE usage;
ALTER TABLE usage_002 RENAME TO usage;
CREATE INDEX usage_agent_time ON usage (created_at, agent_id);

CREATE TABLE reviews (
  id                TEXT PRIMARY KEY,
  mode              TEXT NOT NULL CHECK (mode IN ('standard', 'deep')),
  status            TEXT NOT NULL CHECK (status IN ('planned', 'approving', 'running', 'awaiting_synthesis', 'incomplete',
                      'finalized', 'declined', 'cancelled', 'stale', 'expired')),
  goal              TEXT,
  goal_len          INTEGER NOT NULL,
  -- The plan as shown (reviewers, sizes, web, request count, secret locations): metadata.
  plan_json         TEXT NOT NULL,
  -- The material items, redacted (what a masked run sends), as JSON.
  material_json     TEXT,
  material_len      INTEGER NOT NULL,
  material_sha256   TEXT NOT NULL,
  host_runtime      TEXT,
  -- The one-time token: its SHA-256, and an HMAC keyed by the token over exactly the plan and the
  -- material, so the binding can be checked by whoever holds the token and by nobody who reads this file.
  token_sha256      TEXT NOT NULL,
  token_binding     TEXT NOT NULL,
  token_expires_at  INTEGER NOT NULL,
  token_spent_at    INTEGER,
  approval          TEXT CHECK (approval IN ('elicitation', 'token', 'terminal')),
  secrets           TEXT CHECK (secrets IN ('mask', 'send_as_is')),
  job_id            TEXT,
  synthesis_json    TEXT,
  created_at        INTEGER NOT NULL,
  updated_at        INTEGER NOT NULL
);
CREATE INDEX reviews_updated ON reviews (updated_at DESC);

CREATE TABLE review_reviewers (
  review_id       TEXT NOT NULL REFERENCES reviews (id) ON DELETE CASCADE,
  n               INTEGER NOT NULL,
  agent_id        TEXT NOT NULL,
  backend         TEXT NOT NULL,
  model           TEXT,
  status          TEXT NOT NULL CHECK (status IN ('pending', 'running', 'answered', 'failed', 'unparseable', 'cancelled')),
  attempts        INTEGER NOT NULL DEFAULT 0,
  summary         TEXT,
  -- Kept when the reply could not be read as findings: an unparseable reply is recorded, never dropped.
  reply           TEXT,
  reply_len       INTEGER,
  error_code      TEXT,
  error_message   TEXT,
  model_reported  TEXT,
  model_verified  TEXT CHECK (model_verified IN ('verified', 'unverified', 'mismatch')),
  usage_json      TEXT,
  latency_ms      INTEGER,
  started_at      INTEGER,
  ended_at        INTEGER,
  PRIMARY KEY (review_id, agent_id)
);

CREATE TABLE review_findings (
  review_id           TEXT NOT NULL REFERENCES reviews (id) ON DELETE CASCADE,
  -- F1, F2, … from reviewers; H1, H2, … from the host: what finalize cites.
  id                  TEXT NOT NULL,
  seq                 INTEGER NOT NULL,
  source              TEXT NOT NULL CHECK (source IN ('reviewer', 'host')),
  agent_id            TEXT,
  severity            TEXT NOT NULL CHECK (severity IN ('critical', 'important', 'minor')),
  location            TEXT,
  claim               TEXT,
  claim_len           INTEGER NOT NULL,
  evidence            TEXT,
  disposition         TEXT NOT NULL DEFAULT 'open' CHECK (disposition IN ('open', 'fixed', 'rejected', 'accepted_risk')),
  disposition_reason  TEXT,
  created_at          INTEGER NOT NULL,
  updated_at          INTEGER NOT NULL,
  PRIMARY KEY (review_id, id)
);
