-- 0007_media_compliance: media records, the free screening windows and
-- the screening count, the sanctions list versions (headers, current
-- entries, listing history) and community reports with their escalations.
-- Records read whole are JSON documents beside the columns that queries
-- filter and order by. Times that must round-trip to the nanosecond are
-- Unix nanoseconds (bigint), as the embedded store keeps them.

-- Media of an agent, listed newest first by id (UUIDv7).
CREATE TABLE media (
    agent_id   text COLLATE "C" NOT NULL,
    id         text COLLATE "C" NOT NULL,
    category   text COLLATE "C" NOT NULL,
    expires_ns bigint, -- NULL when pinned or without expiry: never swept
    record     jsonb NOT NULL,
    PRIMARY KEY (agent_id, id)
);
CREATE INDEX media_category_idx ON media (agent_id, category, id);
CREATE INDEX media_expiry_idx ON media (expires_ns, agent_id, id) WHERE expires_ns IS NOT NULL;

-- The free screening window of each developer (store.Screenings).
CREATE TABLE free_windows (
    developer_id text COLLATE "C" PRIMARY KEY,
    start_ns     bigint NOT NULL,
    used         bigint NOT NULL CHECK (used >= 0)
);

-- The screening count, spread over a few rows so that concurrent requests
-- rarely wait for one another; the count is their sum.
CREATE TABLE screening_counts (
    slot  smallint PRIMARY KEY,
    count bigint NOT NULL
);

-- One row per list version: its header (store.ListVersion, JSON).
CREATE TABLE list_versions (
    version bigint PRIMARY KEY CHECK (version > 0),
    header  jsonb NOT NULL
);

-- The current entries of the newest version, each with the version that
-- listed it (since): a listing costs no history row.
CREATE TABLE list_entries (
    family      text COLLATE "C" NOT NULL,
    address     text COLLATE "C" NOT NULL,
    source      text COLLATE "C" NOT NULL,
    entity_id   text COLLATE "C" NOT NULL,
    entity_name text NOT NULL,
    category    text NOT NULL,
    severity    text NOT NULL,
    since       bigint NOT NULL,
    PRIMARY KEY (family, address, source, entity_id)
);

-- The listing and the delisting of every entry that left the list; an
-- address's history is these rows and the listings of its current entries.
CREATE TABLE list_history (
    family      text COLLATE "C" NOT NULL,
    address     text COLLATE "C" NOT NULL,
    version     bigint NOT NULL,
    listed      boolean NOT NULL,
    source      text COLLATE "C" NOT NULL,
    entity_id   text COLLATE "C" NOT NULL,
    entity_name text NOT NULL,
    category    text NOT NULL,
    severity    text NOT NULL,
    PRIMARY KEY (family, address, version, listed, source, entity_id)
);

-- Community reports (cairn.Report, JSON). One report per developer and
-- address; counts: the reporter was established and was not rejected since.
CREATE TABLE reports (
    id           text COLLATE "C" PRIMARY KEY,
    family       text COLLATE "C" NOT NULL,
    canonical    text COLLATE "C" NOT NULL,
    developer_id text COLLATE "C" NOT NULL,
    status       text COLLATE "C" NOT NULL,
    category     text COLLATE "C" NOT NULL,
    counts       boolean NOT NULL,
    record       jsonb NOT NULL,
    CONSTRAINT reports_reporter_key UNIQUE (family, canonical, developer_id)
);
CREATE INDEX reports_status_idx ON reports (status, id);

CREATE TABLE report_escalations (
    family    text COLLATE "C" NOT NULL,
    canonical text COLLATE "C" NOT NULL,
    category  text NOT NULL,
    report_id text NOT NULL,
    reporters integer NOT NULL,
    PRIMARY KEY (family, canonical)
);
