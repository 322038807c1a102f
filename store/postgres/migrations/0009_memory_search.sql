-- 0009_memory_search: memory search served by PostgreSQL (store.MemorySearch),
-- so that every instance on the database finds every write at once.
--
-- Full text: each version's plain text (given by the service with the
-- write: contents are blobs) is kept as a tsvector in memory_versions.fts,
-- and the latest version's is copied into memories.fts, under a GIN index,
-- in the transaction that makes that version the latest (a new memory, a
-- new version, a deleted latest). NULL means the text was never given (a
-- version written before this migration, or by an older binary): the
-- service fills those at start. An encrypted or binary version has the
-- empty tsvector.
--
-- The configuration memory_text is bleve's standard analyzer, which the
-- embedded store's index uses, in PostgreSQL terms: words lower-cased,
-- English stop words dropped, no stemming ("deploy" does not find
-- "deployed", as in bleve). 'simple' would keep stop words, which rank
-- nothing useful; 'english' stems, which bleve does not.
CREATE TEXT SEARCH DICTIONARY memory_text_stop (TEMPLATE = pg_catalog.simple, STOPWORDS = english);
CREATE TEXT SEARCH CONFIGURATION memory_text (COPY = pg_catalog.simple);
ALTER TEXT SEARCH CONFIGURATION memory_text
    ALTER MAPPING FOR asciiword, word, numword, asciihword, hword, numhword, hword_asciipart, hword_part, hword_numpart
    WITH memory_text_stop;

-- memory_text_vector is the tsvector of a text, of its first half (and so
-- on) when the whole would pass the 1 MB limit of a tsvector: a large
-- text is indexed from its start rather than failing its write. The
-- search_path of the migration is kept, so that memory_text resolves
-- whatever the caller's.
CREATE FUNCTION memory_text_vector(body text) RETURNS tsvector
LANGUAGE plpgsql IMMUTABLE STRICT SET search_path FROM CURRENT AS $$
BEGIN
    LOOP
        BEGIN
            RETURN to_tsvector('memory_text', body);
        EXCEPTION WHEN program_limit_exceeded THEN
            body := left(body, length(body) / 2);
        END;
    END LOOP;
END
$$;

ALTER TABLE memory_versions ADD COLUMN fts tsvector;
CREATE INDEX memory_versions_unindexed_idx ON memory_versions (agent_id, id) WHERE fts IS NULL;

-- key_lower is the key lower-cased as Go's strings.ToLower does (set by
-- the store on every write; lower() here is the same for ASCII keys, and
-- the service's fill at start sets the others): key search matches it
-- with LIKE.
ALTER TABLE memories ADD COLUMN fts tsvector, ADD COLUMN key_lower text COLLATE "C";
UPDATE memories SET key_lower = lower(key);
ALTER TABLE memories ALTER COLUMN key_lower SET NOT NULL;
CREATE INDEX memories_fts_idx ON memories USING gin (fts);

-- Key search is a substring match: with the pg_trgm extension (shipped
-- with PostgreSQL, trusted: a database owner may create it) a trigram GIN
-- index serves it; without it (no right to create extensions) key search
-- reads the agent's keys through memories_key_key, as the in-memory key
-- map does. The indexed text is the agent id, a space and the key, so
-- that the rare trigrams of the agent's id narrow the trigrams that keys
-- of every agent share ("notes/"): an exact key among 200 agents' 1000
-- similar keys each took 80 ms through an index of keys alone, 4 ms
-- through this one. The extension lives in the schema public when it is
-- created here, and its operator class is named with its schema, so that
-- this schema needs no other on its search_path.
DO $$
DECLARE
    ns name;
BEGIN
    FOR attempt IN 1..2 LOOP
        SELECT n.nspname INTO ns FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm';
        EXIT WHEN ns IS NOT NULL;
        BEGIN
            CREATE EXTENSION pg_trgm SCHEMA public;
        EXCEPTION
            WHEN unique_violation OR duplicate_object THEN
                NULL; -- created meanwhile by another schema's migration: read it again
            WHEN insufficient_privilege OR undefined_file OR invalid_schema_name OR feature_not_supported THEN
                RAISE NOTICE 'pg_trgm is not available (%): key search reads each agent''s keys', SQLERRM;
                RETURN;
        END;
    END LOOP;
    IF ns IS NOT NULL THEN
        EXECUTE format('CREATE INDEX memories_key_trgm_idx ON memories USING gin ((agent_id || '' '' || key_lower) %I.gin_trgm_ops)', ns);
    END IF;
END
$$;
