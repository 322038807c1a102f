package pebble_test

import (
	"testing"

	"github.com/cairn-dev/cairn/store"
	"github.com/cairn-dev/cairn/store/pebble"
	"github.com/cairn-dev/cairn/store/storetest"
)

func TestComplianceConformance(t *testing.T) {
	storetest.RunComplianceTests(t, func(t *testing.T) store.Compliance {
		db, err := pebble.Open(t.TempDir(), pebble.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	})
}

func TestScreeningsConformance(t *testing.T) {
	open := func(t *testing.T, dir string) *pebble.DB {
		db, err := pebble.Open(dir, pebble.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	storetest.RunScreeningTests(t, func(t *testing.T) store.Screenings { return open(t, t.TempDir()) })
	t.Run("Persistence", func(t *testing.T) {
		dir := t.TempDir()
		storetest.RunScreeningPersistenceTest(t, func(t *testing.T) store.Screenings { return open(t, dir) },
			func(t *testing.T, s store.Screenings) store.Screenings {
				if err := s.(*pebble.DB).Close(); err != nil {
					t.Fatal(err)
				}
				return open(t, dir)
			})
	})
}

func TestAnchorsConformance(t *testing.T) {
	storetest.RunAnchorTests(t, func(t *testing.T) store.Anchors {
		db, err := pebble.Open(t.TempDir(), pebble.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	})
}
