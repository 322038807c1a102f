// Package postgres is the scale-out storage backend of cairn: every store
// interface implemented on PostgreSQL through jackc/pgx/v5 (pgxpool), so
// that several cairn processes can share one database.
//
// The schema lives in embedded SQL migrations (migrations/NNNN_name.sql),
// applied by Open in one transaction under an advisory lock and recorded in
// schema_migrations, so that processes starting together never race. All
// tables live in one schema (Options.Schema), which Open creates if absent.
//
// Every method that writes more than one row does so in one transaction, or
// in one statement: a ledger entry is a single conditional UPDATE of the
// developer row joined to the INSERT of the entry, so the balance check, the
// balance, the per-developer sequence and the entry commit together and
// concurrent charges never overspend. Uniqueness (agent ids, key hashes,
// deposit indexes, ledger unique keys) is enforced by unique indexes and a
// violation becomes ECONFLICT. Charges are the exception to one statement
// each: an instance takes them in memory against the balance it last read
// and applies each account's together within ChargeDefer
// (deferred_charges.go), within a bound of 64 credits an instance may have
// to forgo when other instances spend the same account meanwhile.
//
// Processes sharing a schema hear of each other's commits through
// LISTEN/NOTIFY on dedicated connections (cluster.go, memory_feed.go): a
// committed list version on ListVersionChannel
// ("cairn_list_version.<schema>"), and every commit that changes a
// memory's head or removes it on MemoryChannel ("cairn_memory.<schema>"),
// sent inside that transaction with the agent,
// memory id and key, so that each process updates its own vector index;
// a process skips its own. LeaderLock elects the one process that runs the
// shared sweeps.
//
// Memory search (store.MemorySearch) is answered here, so that every
// process finds every write at once: full text from a tsvector of the
// latest version's text (memories.fts, copied to memory_search; the query's words and
// phrases each through websearch_to_tsquery, joined by OR as bleve joins
// them, ranked by ts_rank, those holding all the words first, at most
// maxRanked memories per word ranked; the configuration memory_text is
// bleve's standard analyzer: lower-cased words without English stop
// words, unstemmed), keys by LIKE over the key lower-cased (the keys that
// start with the needle first, through a btree range, as they outrank the
// others; the rest in key order, stopped at the limit, then through a
// pg_trgm trigram index when the extension can be created), tags and
// expiry in each statement. Search
// reads memory_search, a narrow copy of the heads' searched columns (key,
// expiry, tags, tsvector) under those indexes, kept by a trigger on
// memories in every write's transaction: ranking a common word reads its
// small rows rather than the heads with their JSON. The
// text comes with each write (MemoryVersion.SearchText: contents are
// blobs); each version keeps its tsvector, so a deleted latest hands the
// search to the previous version in its own transaction.
//
// The package imports the root package, store and pgx; it must not import
// the HTTP front end, the domain services, the chain packages or another
// backend.
package postgres
