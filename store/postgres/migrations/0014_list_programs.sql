-- The sanctions programs of a listing (cairn.Programs: OFAC codes, one per
-- line; empty when the source names none). Rows stored before have none.
ALTER TABLE list_entries ADD COLUMN programs text NOT NULL DEFAULT '';
ALTER TABLE list_history ADD COLUMN programs text NOT NULL DEFAULT '';
