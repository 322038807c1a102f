-- 0013_webhooks: webhook endpoints, their deliveries (persisted before any
-- attempt, leased to one sender at a time by next_ns) and the outbox of
-- alerts not fanned out to their webhooks yet.

CREATE TABLE webhook_endpoints (
    developer_id text COLLATE "C" NOT NULL,
    id           text COLLATE "C" NOT NULL,
    record       jsonb NOT NULL,
    PRIMARY KEY (developer_id, id)
);
CREATE UNIQUE INDEX webhook_endpoints_id_idx ON webhook_endpoints (id);

CREATE TABLE webhook_deliveries (
    developer_id text COLLATE "C" NOT NULL,
    endpoint_id  text COLLATE "C" NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    id           text COLLATE "C" NOT NULL PRIMARY KEY,
    event_id     text COLLATE "C" NOT NULL,
    pending      boolean NOT NULL,
    next_ns      bigint NOT NULL,
    record       jsonb NOT NULL,
    UNIQUE (endpoint_id, event_id)
);
CREATE INDEX webhook_deliveries_list_idx ON webhook_deliveries (developer_id, endpoint_id, id);
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_ns) WHERE pending;

ALTER TABLE watch_alerts ADD COLUMN fanned boolean NOT NULL DEFAULT false;
CREATE INDEX watch_alerts_outbox_idx ON watch_alerts (id) WHERE NOT fanned;
