package pebble_test

import (
	"context"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
	"github.com/cairn-dev/cairn/store/pebble"
	"github.com/cairn-dev/cairn/store/storetest"
)

func TestConformance(t *testing.T) {
	t.Run("InMemory", func(t *testing.T) {
		storetest.RunTests(t, func(t *testing.T) store.Store {
			db, err := pebble.Open("", pebble.Options{InMemory: true})
			if err != nil {
				t.Fatal(err)
			}
			return db
		})
	})
	t.Run("OnDiskUnbuffered", func(t *testing.T) { // every charge written at once
		storetest.RunTests(t, func(t *testing.T) store.Store {
			db, err := pebble.Open(t.TempDir(), pebble.Options{ChargeFlush: -1})
			if err != nil {
				t.Fatal(err)
			}
			return db
		})
	})
	t.Run("OnDisk", func(t *testing.T) {
		storetest.RunTests(t, func(t *testing.T) store.Store {
			db, err := pebble.Open(t.TempDir(), pebble.Options{})
			if err != nil {
				t.Fatal(err)
			}
			return db
		})
	})
}

func TestPersistence(t *testing.T) {
	dir := t.TempDir()
	storetest.RunPersistenceTest(t, func(t *testing.T) store.Store {
		db, err := pebble.Open(dir, pebble.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return db
	})
}

func TestOpenClose(t *testing.T) {
	ctx := context.Background()
	t.Run("ErrEmptyDir", func(t *testing.T) {
		if _, err := pebble.Open("", pebble.Options{}); err == nil {
			t.Fatal("Open with no directory succeeded")
		}
	})
	t.Run("Clock", func(t *testing.T) {
		at := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
		db, err := pebble.Open("", pebble.Options{InMemory: true, Clock: cairn.NewManualClock(at)})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		e := &cairn.AuditEntry{AgentID: cairn.NewID(), Action: cairn.AuditRead}
		if err := db.AppendAudit(ctx, e); err != nil {
			t.Fatal(err)
		}
		d, err := db.EnsureDeveloper(ctx, "dev")
		if err != nil {
			t.Fatal(err)
		}
		if !e.CreatedAt.Equal(at) || !d.CreatedAt.Equal(at) {
			t.Fatalf("stamped %v and %v, want the clock's %v", e.CreatedAt, d.CreatedAt, at)
		}
	})
}
