-- 0002_ledger_time: every developer's ledger entries by time, for the
-- start-up recovery of charges whose request a crash interrupted
-- (LedgerSince reads the last moments of a run).

CREATE INDEX ledger_created_at_idx ON ledger (created_at, developer_id, seq);
