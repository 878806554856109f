-- 001: runs and attempts, cooldowns, consultations and turns, jobs, usage.
-- Not STRICT tables: macOS builds of bun:sqlite use the system SQLite, which may predate 3.37.
-- Times are integer milliseconds since the epoch. Content columns (prompt, answer, context,
-- partial output) are NULL when store_full_content is false; their *_len / *_sha256 columns keep
-- the shape of what was sent so history stays useful without the text.

CREATE TABLE runs (
  id             TEXT PRIMARY KEY,
  tool           TEXT NOT NULL CHECK (tool IN ('route', 'consult', 'run-cli')),
  tier           TEXT,
  cwd            TEXT NOT NULL,
  prompt         TEXT,
  prompt_len     INTEGER NOT NULL,
  prompt_sha256  TEXT NOT NULL,
  status         TEXT NOT NULL CHECK (status IN ('running', 'ok', 'failed', 'cancelled')),
  served_by      TEXT,
  error_code     TEXT,
  error_message  TEXT,
  answer         TEXT,
  answer_len     INTEGER,
  answer_sha256  TEXT,
  started_at     INTEGER NOT NULL,
  ended_at       INTEGER,
  pid            INTEGER NOT NULL,
  tree_changed   INTEGER CHECK (tree_changed IN (0, 1))
);
CREATE INDEX runs_started ON runs (started_at DESC, id DESC);
CREATE INDEX runs_running ON runs (status) WHERE status = 'running';

CREATE TABLE attempts (
  run_id       TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  n            INTEGER NOT NULL,
  agent_id     TEXT NOT NULL,
  backend      TEXT NOT NULL,
  model        TEXT,
  provider     TEXT NOT NULL,
  outcome      TEXT NOT NULL,
  reason       TEXT NOT NULL,
  exit_code    INTEGER,
  duration_ms  INTEGER NOT NULL,
  session_id   TEXT,
  usage_json   TEXT,
  fell_back    INTEGER NOT NULL CHECK (fell_back IN (0, 1)),
  created_at   INTEGER NOT NULL,
  PRIMARY KEY (run_id, n)
);

CREATE TABLE cooldowns (
  agent_id  TEXT PRIMARY KEY,
  cls       TEXT NOT NULL CHECK (cls IN ('auth', 'capacity', 'transport', 'not_installed')),
  until_ms  INTEGER NOT NULL,
  armed_at  INTEGER NOT NULL
);

CREATE TABLE consultations (
  id                 TEXT PRIMARY KEY,
  agent_id           TEXT NOT NULL,
  backend            TEXT NOT NULL,
  model              TEXT,
  host_runtime       TEXT,
  native_session_id  TEXT,
  status             TEXT NOT NULL CHECK (status IN ('open', 'failed', 'closed')),
  created_at         INTEGER NOT NULL,
  updated_at         INTEGER NOT NULL
);
CREATE INDEX consultations_updated ON consultations (updated_at DESC);

CREATE TABLE turns (
  consultation_id  TEXT NOT NULL REFERENCES consultations (id) ON DELETE CASCADE,
  n                INTEGER NOT NULL,
  prompt           TEXT,
  prompt_len       INTEGER NOT NULL,
  prompt_sha256    TEXT NOT NULL,
  context          TEXT,
  context_len      INTEGER,
  answer_json      TEXT,
  answer_len       INTEGER,
  error_code       TEXT,
  error_message    TEXT,
  model_reported   TEXT,
  model_verified   TEXT NOT NULL CHECK (model_verified IN ('verified', 'unverified', 'mismatch')),
  usage_json       TEXT,
  latency_ms       INTEGER NOT NULL,
  created_at       INTEGER NOT NULL,
  PRIMARY KEY (consultation_id, n)
);

CREATE TABLE jobs (
  id                TEXT PRIMARY KEY,
  kind              TEXT NOT NULL CHECK (kind IN ('route', 'consult')),
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
CREATE INDEX jobs_running ON jobs (status) WHERE status = 'running';
CREATE INDEX jobs_created ON jobs (created_at DESC);

-- One row per attempt or consultation turn that reported anything; summaries group by agent.
CREATE TABLE usage (
  id                   INTEGER PRIMARY KEY,
  source               TEXT NOT NULL CHECK (source IN ('attempt', 'turn')),
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
CREATE INDEX usage_agent_time ON usage (created_at, agent_id);
