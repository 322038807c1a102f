-- 0005_rate_limits: the request limits that survive a restart
-- (registrations per client network, key rotation attempts). One row per
-- limit and key: the theoretical arrival time of its GCRA counter.

CREATE TABLE rate_limits (
    key bytea PRIMARY KEY, -- any string, NUL bytes included
    tat timestamptz NOT NULL
);

CREATE INDEX rate_limits_tat ON rate_limits (tat);
