package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/cairn-dev/cairn/store"
)

// sharedStore holds the records that every instance serving one set of
// accounts must see alike: memories and the audit log (account and memory
// entries in one place), idempotency records, settled marks, media
// records, the free screening windows and the screening count, the
// sanctions list versions, community reports and the anchoring of list
// versions. It is the Postgres store when --store is
// a postgres:// URL, else the embedded store.
type sharedStore interface {
	store.Memories
	store.Audit
	store.Idempotency
	store.Settled
	store.Media
	store.Screenings
	store.Compliance
	store.Reports
	store.Anchors
}

// openShared sets m.shared after openCore.
func (m *Main) openShared() {
	m.shared = m.store
	if m.pg != nil {
		m.shared = m.pg
	}
}

// isPostgresURL reports whether --store names a PostgreSQL database.
func isPostgresURL(u string) bool {
	return strings.HasPrefix(u, "postgres://") || strings.HasPrefix(u, "postgresql://")
}

// resolveStore turns --store postgres with --postgres-url into the URL
// --store also takes, and refuses a --postgres-url that nothing uses.
func resolveStore(cfg *Config) error {
	switch {
	case cfg.Store == "postgres":
		if !isPostgresURL(cfg.PostgresURL) {
			return errors.New("--store postgres needs --postgres-url postgres://... (or CAIRN_POSTGRES_URL)")
		}
		cfg.Store = cfg.PostgresURL
	case cfg.PostgresURL != "" && cfg.Store != cfg.PostgresURL:
		return fmt.Errorf("--postgres-url is set but --store is %q: give --store postgres", cfg.Store)
	}
	return nil
}
