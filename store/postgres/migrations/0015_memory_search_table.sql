-- 0015_memory_search_table: memory search reads a narrow table of its own.
--
-- Ranking full text computes ts_rank for every row that matches (a GIN
-- index keeps no term frequencies to rank from), and a common word
-- matches most of an agent's memories: from memories, whose rows carry
-- the head JSON (~710 B each), that read most of the table (9,097 pages at
-- 100,000 memories). memory_search holds only what a search filters,
-- ranks and answers with: the agent, the memory id, the key and its
-- lower-cased form, the expiry, the tags and the latest version's
-- tsvector. The search indexes move here with it.
--
-- It is kept by a trigger on memories, so in the transaction of every
-- write of a head (create, new version, delete, expiry, the text set at
-- start), whatever statement makes it.
CREATE TABLE memory_search (
    agent_id   text COLLATE "C" NOT NULL,
    id         text COLLATE "C" NOT NULL,
    key        text COLLATE "C" NOT NULL,
    key_lower  text COLLATE "C" NOT NULL,
    expires_ns bigint,
    tags       jsonb,
    fts        tsvector,
    PRIMARY KEY (agent_id, id)
);

CREATE FUNCTION memory_search_sync() RETURNS trigger
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        DELETE FROM memory_search WHERE agent_id = OLD.agent_id AND id = OLD.id;
        RETURN NULL;
    END IF;
    INSERT INTO memory_search (agent_id, id, key, key_lower, expires_ns, tags, fts)
    VALUES (NEW.agent_id, NEW.id, NEW.key, NEW.key_lower, NEW.expires_ns, NEW.head->'tags', NEW.fts)
    ON CONFLICT (agent_id, id) DO UPDATE SET key = EXCLUDED.key, key_lower = EXCLUDED.key_lower,
        expires_ns = EXCLUDED.expires_ns, tags = EXCLUDED.tags, fts = EXCLUDED.fts;
    RETURN NULL;
END
$$;

CREATE TRIGGER memory_search_insert AFTER INSERT ON memories
    FOR EACH ROW EXECUTE FUNCTION memory_search_sync();
CREATE TRIGGER memory_search_delete AFTER DELETE ON memories
    FOR EACH ROW EXECUTE FUNCTION memory_search_sync();
-- An update that changes none of the searched columns (a pin, the
-- importance, an embedding) leaves memory_search alone.
CREATE TRIGGER memory_search_update AFTER UPDATE ON memories
    FOR EACH ROW WHEN (OLD.key IS DISTINCT FROM NEW.key OR OLD.key_lower IS DISTINCT FROM NEW.key_lower
        OR OLD.expires_ns IS DISTINCT FROM NEW.expires_ns OR OLD.fts IS DISTINCT FROM NEW.fts
        OR OLD.head->'tags' IS DISTINCT FROM NEW.head->'tags')
    EXECUTE FUNCTION memory_search_sync();

INSERT INTO memory_search (agent_id, id, key, key_lower, expires_ns, tags, fts)
SELECT agent_id, id, key, key_lower, expires_ns, head->'tags', fts FROM memories;

-- The indexes of 0009 and 0010, on the narrow table; tags get one too, so
-- that a tag and a key prefix meet in a bitmap rather than a heap fetch
-- per key.
CREATE INDEX memory_search_fts_idx ON memory_search USING gin (fts);
CREATE INDEX memory_search_key_lower_idx ON memory_search (agent_id, key_lower) INCLUDE (key, expires_ns);
CREATE INDEX memory_search_tags_idx ON memory_search USING gin (tags jsonb_path_ops);
DROP INDEX memories_fts_idx;
DROP INDEX memories_key_lower_idx;

-- The trigram index where 0009 could create pg_trgm (or found it).
DO $$
DECLARE
    ns name;
BEGIN
    SELECT n.nspname INTO ns FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm';
    IF ns IS NOT NULL THEN
        EXECUTE format('CREATE INDEX memory_search_key_trgm_idx ON memory_search USING gin ((agent_id || '' '' || key_lower) %I.gin_trgm_ops)', ns);
    END IF;
END
$$;
DROP INDEX IF EXISTS memories_key_trgm_idx;
