-- 0001_init: accounts, agents, the credit ledger, the audit log, settings
-- and service-wide counters. Identifiers are compared byte-wise (COLLATE
-- "C") so that UUIDv7 ids sort by time whatever the database's locale.

CREATE TABLE developers (
    id         text COLLATE "C" PRIMARY KEY,
    balance    bigint      NOT NULL DEFAULT 0 CHECK (balance >= 0),
    ledger_seq bigint      NOT NULL DEFAULT 0 CHECK (ledger_seq >= 0),
    created_at timestamptz NOT NULL
);

-- deposit_index is reserved only by an agent with a deposit address, as in
-- the other backends: the partial unique index holds those alone.
CREATE TABLE agents (
    id              text COLLATE "C" PRIMARY KEY,
    developer_id    text COLLATE "C" NOT NULL REFERENCES developers (id),
    name            text        NOT NULL DEFAULT '',
    key_hash        bytea       NOT NULL,
    secret_hash     bytea,
    revoked         boolean     NOT NULL DEFAULT false,
    revoked_at      timestamptz,
    deposit_index   bigint      NOT NULL CHECK (deposit_index BETWEEN 0 AND 4294967295),
    deposit_address text        NOT NULL DEFAULT '',
    created_at      timestamptz NOT NULL,
    rotated_at      timestamptz,
    CONSTRAINT agents_key_hash_key UNIQUE (key_hash)
);
CREATE INDEX agents_developer_id_idx ON agents (developer_id);
CREATE UNIQUE INDEX agents_deposit_index_key ON agents (deposit_index) WHERE deposit_address <> '';

-- One row per ledger entry; (developer_id, seq) is the page order.
CREATE TABLE ledger (
    developer_id  text COLLATE "C" NOT NULL REFERENCES developers (id),
    seq           bigint      NOT NULL CHECK (seq > 0),
    id            text COLLATE "C" NOT NULL,
    agent_id      text        NOT NULL DEFAULT '',
    kind          text        NOT NULL,
    operation     text        NOT NULL DEFAULT '',
    amount        bigint      NOT NULL,
    balance_after bigint      NOT NULL CHECK (balance_after >= 0),
    request_id    text        NOT NULL DEFAULT '',
    ref_id        text        NOT NULL DEFAULT '',
    reason        text        NOT NULL DEFAULT '',
    unique_key    text COLLATE "C",
    created_at    timestamptz NOT NULL,
    PRIMARY KEY (developer_id, seq),
    CONSTRAINT ledger_unique_key_key UNIQUE (unique_key)
);

-- Audit entries of an agent, listed newest first by id (UUIDv7).
CREATE TABLE audit (
    agent_id   text COLLATE "C" NOT NULL,
    id         text COLLATE "C" NOT NULL,
    action     text COLLATE "C" NOT NULL,
    resource   text        NOT NULL DEFAULT '',
    detail     jsonb,
    request_id text        NOT NULL DEFAULT '',
    ip         text        NOT NULL DEFAULT '',
    created_at timestamptz NOT NULL,
    PRIMARY KEY (agent_id, id)
);
CREATE INDEX audit_action_idx ON audit (agent_id, action, id);

CREATE TABLE settings (
    name  text COLLATE "C" PRIMARY KEY,
    value bytea NOT NULL
);

-- Service-wide counters; deposit_next is the next HD derivation index to try.
CREATE TABLE counters (
    name  text COLLATE "C" PRIMARY KEY,
    value bigint NOT NULL
);
INSERT INTO counters (name, value) VALUES ('deposit_next', 0);
