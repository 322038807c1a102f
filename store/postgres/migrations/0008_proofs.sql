-- 0008_proofs: screening proof documents by screening id, as the
-- compliance service stores them (zstd-compressed JSON), so that every
-- instance sharing the database serves every proof.

CREATE TABLE proofs (
    id  text PRIMARY KEY,
    doc bytea NOT NULL
);
