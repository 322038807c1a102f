-- 0006_memory: agent memories (heads and versions), idempotency records
-- and settled marks. Records read whole are JSON documents beside the
-- columns that queries filter and order by; times that must round-trip to
-- the nanosecond are Unix nanoseconds (bigint), as the embedded store keeps
-- them.

-- The head of a memory (store.Memory, JSON). id is the id of its first
-- version (UUIDv7, so by time); one memory per agent and key.
CREATE TABLE memories (
    agent_id   text COLLATE "C" NOT NULL,
    id         text COLLATE "C" NOT NULL,
    key        text COLLATE "C" NOT NULL,
    type       text COLLATE "C" NOT NULL,
    visibility text COLLATE "C" NOT NULL,
    pinned     boolean NOT NULL,
    importance double precision NOT NULL,
    updated_ns bigint NOT NULL,
    expires_ns bigint, -- NULL when pinned or without expiry: never expires
    latest     integer NOT NULL,
    head       jsonb NOT NULL,
    PRIMARY KEY (agent_id, id),
    CONSTRAINT memories_key_key UNIQUE (agent_id, key)
);
CREATE INDEX memories_updated_idx ON memories (agent_id, updated_ns, id);
CREATE INDEX memories_importance_idx ON memories (agent_id, importance, id);
CREATE INDEX memories_agent_expiry_idx ON memories (agent_id, expires_ns, id) WHERE expires_ns IS NOT NULL;
CREATE INDEX memories_expiry_idx ON memories (expires_ns, agent_id, id) WHERE expires_ns IS NOT NULL;

-- Every stored version (store.MemoryVersion, JSON), by its own id.
CREATE TABLE memory_versions (
    agent_id  text COLLATE "C" NOT NULL,
    id        text COLLATE "C" NOT NULL,
    memory_id text COLLATE "C" NOT NULL,
    version   integer NOT NULL CHECK (version > 0),
    record    jsonb NOT NULL,
    PRIMARY KEY (agent_id, id),
    CONSTRAINT memory_versions_version_key UNIQUE (agent_id, memory_id, version)
);

-- Idempotency records (store.IdempotencyRecord, JSON bytes: a key may hold
-- any byte, which text and jsonb refuse).
CREATE TABLE idempotency (
    agent_id   text COLLATE "C" NOT NULL,
    route      text COLLATE "C" NOT NULL,
    key        bytea NOT NULL,
    expires_ns bigint NOT NULL,
    record     bytea NOT NULL,
    PRIMARY KEY (agent_id, route, key)
);
CREATE INDEX idempotency_expiry_idx ON idempotency (expires_ns);

-- The charges that stand (store.Settled), by the time they were marked.
CREATE TABLE settled (
    at_ns     bigint NOT NULL,
    charge_id text COLLATE "C" NOT NULL,
    PRIMARY KEY (at_ns, charge_id)
);
