package postgres

import (
	"testing"

	"github.com/cairn-dev/cairn/store/storetest"
)

// BenchmarkMemoryRaw is BenchmarkMemoryRaw of store/pebble on Postgres (see
// storetest.BenchMemory): the version, the head and the audit entry are
// one transaction.
func BenchmarkMemoryRaw(b *testing.B) {
	storetest.BenchMemory(b, openBench(b))
}
