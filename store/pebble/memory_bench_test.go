package pebble_test

import (
	"testing"

	"github.com/cairn-dev/cairn/store/pebble"
	"github.com/cairn-dev/cairn/store/storetest"
)

// BenchmarkMemoryRaw is the raw-Pebble reference of the HTTP figures (see
// storetest.BenchMemory): the version, its indexes, the head and the audit
// entry are one synced batch.
func BenchmarkMemoryRaw(b *testing.B) {
	db, err := pebble.Open(b.TempDir(), pebble.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	storetest.BenchMemory(b, db)
}
