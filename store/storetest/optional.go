package storetest

import (
	"testing"

	"github.com/cairn-dev/cairn/store"
)

// optionalSuite is the conformance suite of an interface a backend may
// implement beside store.Store.
type optionalSuite struct {
	name string
	run  func(t *testing.T, probe store.Store, open func(t *testing.T) store.Store)
}

// suite binds the suite run of the interface S named name.
func suite[S any](name string, run func(*testing.T, func(*testing.T) S)) optionalSuite {
	return optionalSuite{name, func(t *testing.T, probe store.Store, open func(t *testing.T) store.Store) {
		if _, ok := probe.(S); !ok {
			t.Skipf("%T does not implement store.%s", probe, name)
		}
		run(t, func(t *testing.T) S {
			s := open(t)
			t.Cleanup(func() { _ = s.Close() })
			return s.(S)
		})
	}}
}

// optionalSuites are every optional interface of store and its suite.
// RunTests runs each one the backend implements and reports the others as
// skipped, with the reason.
var optionalSuites = []optionalSuite{
	suite("Memories", RunMemoryTests),
	suite("MemorySearch", RunMemorySearchTests),
	suite("Media", RunMediaTests),
	suite("Idempotency", RunIdempotencyTests),
	suite("Settled", RunSettledTests),
	suite("Screenings", RunScreeningTests),
	suite("Compliance", RunComplianceTests),
	suite("Reports", RunReportTests),
	suite("Anchors", RunAnchorTests),
	suite("RateLimits", RunRateLimitTests),
	suite("Proofs", RunProofTests),
}

// runOptional runs the optional suites against the stores open returns.
func runOptional(t *testing.T, open func(t *testing.T) store.Store) {
	probe := open(t)
	if err := probe.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	for _, s := range optionalSuites {
		t.Run(s.name, func(t *testing.T) { s.run(t, probe, open) })
	}
}
