-- 009: the last quota each execution identity reported, per window (codex's 5-hour and weekly
-- windows, claude's five_hour / seven_day, agy's individual quota). One row per identity and
-- window, replaced by each newer observation; the router reads it before sending anything.
CREATE TABLE quota (
  agent_id     TEXT NOT NULL,
  window       TEXT NOT NULL,
  state        TEXT NOT NULL CHECK (state IN ('ok', 'warning', 'exhausted')),
  used_percent REAL,
  resets_at    INTEGER,
  observed_at  INTEGER NOT NULL,
  source       TEXT NOT NULL,
  PRIMARY KEY (agent_id, window)
);
