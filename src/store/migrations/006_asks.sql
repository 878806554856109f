-- 006: asks (seed 002's direct HTTP calls) and their legs, so an ask is in the history like a run.
--
-- One row per ask that reached the service (answered, refused after the boundary checks, or out of
-- budget); one ask_legs row per HTTP exchange, laid out like runs / attempts. The served deployment
-- is kept as its model and its base URL's host only: never a key, a key variable's value, a path,
-- a query or credentials in the URL. Content columns follow store_full_content and the scrubber,
-- as every other table's do. Its usage row (source 'ask', agent_id = the capability, backend
-- 'http', tier NULL) rolls into usage_hourly through migration 005's triggers.

CREATE TABLE asks (
  id              TEXT PRIMARY KEY,
  capability      TEXT NOT NULL,
  status          TEXT NOT NULL CHECK (status IN ('ok', 'failed')),
  error_code      TEXT,
  error_message   TEXT,
  model           TEXT,
  host            TEXT,
  fallback_used   INTEGER NOT NULL CHECK (fallback_used IN (0, 1)),
  finish_reason   TEXT,
  latency_ms      INTEGER NOT NULL,
  input_tokens    INTEGER,
  output_tokens   INTEGER,
  cost_usd        REAL,
  prompt          TEXT,
  prompt_len      INTEGER NOT NULL,
  prompt_sha256   TEXT NOT NULL,
  system          TEXT,
  system_len      INTEGER,
  context         TEXT,
  context_len     INTEGER,
  answer          TEXT,
  answer_len      INTEGER,
  answer_sha256   TEXT,
  created_at      INTEGER NOT NULL
);
-- Keyset paging, newest first, whole list or one status / capability.
CREATE INDEX asks_created ON asks (created_at DESC, id DESC);
CREATE INDEX asks_status_created ON asks (status, created_at DESC, id DESC);
CREATE INDEX asks_capability_created ON asks (capability, created_at DESC, id DESC);

CREATE TABLE ask_legs (
  ask_id       TEXT NOT NULL REFERENCES asks (id) ON DELETE CASCADE,
  n            INTEGER NOT NULL,
  capability   TEXT NOT NULL,
  model        TEXT NOT NULL,
  host         TEXT,
  -- ok, non_answer, rejected (failed response_schema: a repair turn followed), failed, cancelled
  outcome      TEXT NOT NULL,
  error_code   TEXT,
  status_code  INTEGER,
  latency_ms   INTEGER NOT NULL,
  -- How many earlier legs of this ask failed on the same deployment (0 = its first try).
  retry        INTEGER NOT NULL,
  created_at   INTEGER NOT NULL,
  PRIMARY KEY (ask_id, n)
);
