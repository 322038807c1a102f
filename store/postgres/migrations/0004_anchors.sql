-- 0004_anchors: the on-chain anchoring of list versions (chain/evm). One
-- row per (target, list version); the record itself is a JSON document
-- (store.Anchor), written whole by each update.

CREATE TABLE anchors (
    target       text COLLATE "C" NOT NULL,
    list_version bigint NOT NULL CHECK (list_version > 0),
    record       jsonb  NOT NULL,
    PRIMARY KEY (target, list_version)
);
