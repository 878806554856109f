-- 004: workflows (seed 001's three-phase workflow): one row per workflow with the bindings and
-- policy snapshotted at start, and one row per planned step with its one-time token (SHA-256 and
-- an HMAC binding, never the token), the redacted context it sends, and what it produced (patch,
-- ignored files, test report, review id). A workflow requires store_full_content: true.

CREATE TABLE workflows (
  id               TEXT PRIMARY KEY,
  status           TEXT NOT NULL CHECK (status IN ('active', 'completed', 'needs_attention', 'failed', 'cancelled')),
  goal             TEXT NOT NULL,
  workdir          TEXT NOT NULL,
  baseline_commit  TEXT NOT NULL,
  -- The latest applied commit: what a worktree checks out and what a test report is stamped with.
  current_commit   TEXT NOT NULL,
  round            INTEGER NOT NULL DEFAULT 0,
  snapshot_json    TEXT NOT NULL,
  created_at       INTEGER NOT NULL,
  updated_at       INTEGER NOT NULL
);
CREATE INDEX workflows_updated ON workflows (updated_at DESC);

CREATE TABLE workflow_steps (
  id                TEXT PRIMARY KEY,
  workflow_id       TEXT NOT NULL REFERENCES workflows (id) ON DELETE CASCADE,
  seq               INTEGER NOT NULL,
  step              TEXT NOT NULL,
  round             INTEGER NOT NULL,
  status            TEXT NOT NULL CHECK (status IN ('planned', 'running', 'awaiting_host_apply', 'succeeded', 'failed', 'cancelled')),
  executor          TEXT NOT NULL CHECK (executor IN ('host', 'agent', 'agents')),
  agent_id          TEXT,
  execution         TEXT,
  preview_json      TEXT NOT NULL,
  context           TEXT,
  prompt_sha256     TEXT NOT NULL,
  token_sha256      TEXT NOT NULL,
  token_binding     TEXT NOT NULL,
  token_expires_at  INTEGER NOT NULL,
  token_spent_at    INTEGER,
  approval          TEXT,
  commit_before     TEXT NOT NULL,
  review_id         TEXT,
  result_json       TEXT,
  error_code        TEXT,
  error_message     TEXT,
  created_at        INTEGER NOT NULL,
  updated_at        INTEGER NOT NULL,
  UNIQUE (workflow_id, seq)
);
