-- 0010_memory_key_prefix: key search reads the keys that start with its
-- needle (which outrank every other match) through this index, a range of
-- key_lower ("C" collation: LIKE 'prefix%' is a range), and only when
-- they are too few the keys that hold it elsewhere. key and expires_ns
-- are included so that a search without tags reads the index alone
-- (where the visibility map allows), also for the substring search over
-- the agent's keys that runs without pg_trgm.
CREATE INDEX memories_key_lower_idx ON memories (agent_id, key_lower) INCLUDE (key, expires_ns);
