package main

import (
	"errors"
	"fmt"
	"strings"
)

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
