package storetest

import (
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
)

// lifecycleTests check Ping and Close: a second Close succeeds, and a
// closed store is EUNAVAILABLE.
var lifecycleTests = []test{
	{"CloseTwice", func(t *testing.T, s store.Store) {
		if err := s.Ping(ctx); err != nil {
			t.Fatalf("Ping: %v", err)
		}
		if err := s.Close(); err != nil {
			t.Fatalf("Close: %v", err)
		}
		if err := s.Close(); err != nil {
			t.Fatalf("second Close: %v", err)
		}
		if err := s.Ping(ctx); !cairn.IsCode(err, cairn.EUNAVAILABLE) {
			t.Fatalf("Ping after Close = %v, want %s", err, cairn.EUNAVAILABLE)
		}
	}},
}
