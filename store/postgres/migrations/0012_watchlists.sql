-- 0012_watchlists: developers' watchlists, their addresses with the index
-- list versions are matched through (by canonical address), and the
-- alerts a version's commit records, one per (watchlist, address,
-- version, change) whatever the number of instances.

CREATE TABLE watchlists (
    developer_id text COLLATE "C" NOT NULL,
    id           text COLLATE "C" NOT NULL,
    record       jsonb NOT NULL,
    PRIMARY KEY (developer_id, id)
);
CREATE UNIQUE INDEX watchlists_id_idx ON watchlists (id);

CREATE TABLE watched_addresses (
    watchlist_id text COLLATE "C" NOT NULL REFERENCES watchlists (id) ON DELETE CASCADE,
    developer_id text COLLATE "C" NOT NULL,
    family       text COLLATE "C" NOT NULL,
    address      text COLLATE "C" NOT NULL,
    record       jsonb NOT NULL,
    PRIMARY KEY (watchlist_id, family, address)
);
CREATE INDEX watched_addresses_address_idx ON watched_addresses (family, address);
CREATE INDEX watched_addresses_developer_idx ON watched_addresses (developer_id);

CREATE TABLE watch_alerts (
    developer_id text COLLATE "C" NOT NULL,
    id           text COLLATE "C" NOT NULL,
    watchlist_id text COLLATE "C" NOT NULL,
    family       text COLLATE "C" NOT NULL,
    address      text COLLATE "C" NOT NULL,
    list_version bigint NOT NULL,
    change       text COLLATE "C" NOT NULL,
    record       jsonb NOT NULL,
    PRIMARY KEY (developer_id, id),
    UNIQUE (watchlist_id, family, address, list_version, change)
);
