// Command liststore measures the sanctions list store on both backends
// side by side, alternating them round by round in one run: committing a
// first list version of n entries (random EVM addresses of one source),
// then a version that adds and removes 1% of them, then reading every
// current entry back (ListEntries). Each round opens a fresh Pebble
// directory and a fresh Postgres schema (dropped at the end).
//
//	go run ./bench/liststore -n 1000000 -rounds 3 -postgres 'postgres://postgres@127.0.0.1:5432/test?sslmode=disable'
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"flag"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
	"github.com/cairn-dev/cairn/store/pebble"
	"github.com/cairn-dev/cairn/store/postgres"
	"github.com/jackc/pgx/v5"
)

type backend struct {
	name string
	open func(ctx context.Context) (store.Compliance, func(), error)
}

func main() {
	n := flag.Int("n", 1_000_000, "entries of the first version")
	rounds := flag.Int("rounds", 3, "rounds (each runs both backends)")
	pgURL := flag.String("postgres", os.Getenv("CAIRN_TEST_POSTGRES_URL"), "PostgreSQL URL")
	flag.Parse()
	if *pgURL == "" {
		log.Fatal("-postgres (or CAIRN_TEST_POSTGRES_URL) is required")
	}
	ctx := context.Background()
	first := entries(*n)
	added, removed := entries(*n/100), first[:*n/100]
	backends := []backend{
		{"pebble", func(ctx context.Context) (store.Compliance, func(), error) {
			dir, err := os.MkdirTemp("", "liststore-")
			if err != nil {
				return nil, nil, err
			}
			db, err := pebble.Open(dir, pebble.Options{})
			if err != nil {
				return nil, nil, err
			}
			return db, func() { db.Close(); os.RemoveAll(dir) }, nil
		}},
		{"postgres", func(ctx context.Context) (store.Compliance, func(), error) {
			schema := "liststore_" + hex.EncodeToString(randBytes(6))
			db, err := postgres.Open(ctx, *pgURL, postgres.Options{Schema: schema})
			if err != nil {
				return nil, nil, err
			}
			return db, func() {
				db.Close()
				if conn, err := pgx.Connect(ctx, *pgURL); err == nil {
					_, _ = conn.Exec(ctx, "DROP SCHEMA "+pgx.Identifier{schema}.Sanitize()+" CASCADE")
					conn.Close(ctx)
				}
			}, nil
		}},
	}
	fmt.Printf("%-3s %-9s %14s %14s %14s\n", "run", "backend", "commit v1", "commit v2", "scan")
	for r := range *rounds {
		order := backends
		if r%2 == 1 { // alternate which backend runs first
			order = []backend{backends[1], backends[0]}
		}
		for _, b := range order {
			s, closeFn, err := b.open(ctx)
			if err != nil {
				log.Fatalf("%s: %v", b.name, err)
			}
			t1 := timed(func() error { return s.CommitListVersion(ctx, version(1), first, nil) })
			t2 := timed(func() error { return s.CommitListVersion(ctx, version(2), added, removed) })
			count := 0
			t3 := timed(func() error {
				return s.ListEntries(ctx, func(cairn.ListEntry) error { count++; return nil })
			})
			if want := *n; count != want {
				log.Fatalf("%s: scanned %d entries, want %d", b.name, count, want)
			}
			fmt.Printf("%-3d %-9s %14s %14s %14s\n", r+1, b.name, t1.Round(time.Millisecond), t2.Round(time.Millisecond), t3.Round(time.Millisecond))
			closeFn()
		}
	}
}

func timed(fn func() error) time.Duration {
	start := time.Now()
	if err := fn(); err != nil {
		log.Fatal(err)
	}
	return time.Since(start)
}

func version(v uint64) cairn.ListVersion {
	return cairn.ListVersion{Version: v, BuiltAt: time.Now().UTC(), Root: "0x00"}
}

func randBytes(n int) []byte {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		log.Fatal(err)
	}
	return b
}

// entries returns n listings of random lower-case EVM addresses, as the
// plain per-chain lists give them.
func entries(n int) []cairn.ListEntry {
	out := make([]cairn.ListEntry, n)
	raw := randBytes(20 * n)
	for i := range out {
		out[i] = cairn.ListEntry{Family: "evm", Address: "0x" + hex.EncodeToString(raw[20*i:20*i+20]),
			Source: "list:ethereum", Category: "sanctions", Severity: "critical"}
	}
	return out
}
