package pebble_test

import (
	"testing"

	"github.com/cairn-dev/cairn/store"
	"github.com/cairn-dev/cairn/store/pebble"
	"github.com/cairn-dev/cairn/store/storetest"
)

func TestIdempotencyConformance(t *testing.T) {
	storetest.RunIdempotencyTests(t, func(t *testing.T) store.Idempotency {
		db, err := pebble.Open(t.TempDir(), pebble.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	})
}

func TestSettledConformance(t *testing.T) {
	storetest.RunSettledTests(t, func(t *testing.T) store.Settled {
		db, err := pebble.Open(t.TempDir(), pebble.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	})
}
