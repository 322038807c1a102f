-- 0017_list_changes_by_version: a list version's changes read from
-- indexes in the order VersionChanges returns them, so that a page costs
-- the page and the rows it skips, not the whole list.
--
-- Without them every page read both tables whole: at 1,000,000 current
-- entries a page of a version that changed 1,000 took a parallel scan of
-- list_entries (15,000 pages). The history index is ordered as a
-- version's rows are returned (listing before delisting); the entries
-- index by the version that listed them, then by identity.
CREATE INDEX list_history_version_idx ON list_history (version, family, address, listed DESC, source, entity_id);
CREATE INDEX list_entries_since_idx ON list_entries (since, family, address, source, entity_id);
