package storetest

import (
	"testing"

	"github.com/cairn-dev/cairn/store"
)

// contractSuite is the conformance suite of one interface store.Store
// embeds beside the accounts, ledger, audit and settings of RunTests' own
// groups.
type contractSuite struct {
	name string
	run  func(t *testing.T, open func(t *testing.T) store.Store)
}

// suite binds the suite run of the interface S (which store.Store embeds,
// or, for an optional interface, which the backend may implement) named
// name: a store without S skips it, naming the interface.
func suite[S any](name string, run func(*testing.T, func(*testing.T) S)) contractSuite {
	return contractSuite{name, func(t *testing.T, open func(t *testing.T) store.Store) {
		probe := open(t)
		_, ok := probe.(S)
		if err := probe.Close(); err != nil {
			t.Fatalf("Close: %v", err)
		}
		if !ok {
			t.Skipf("%T does not implement store.%s", probe, name)
		}
		run(t, func(t *testing.T) S {
			s := open(t)
			t.Cleanup(func() { _ = s.Close() })
			return s.(S)
		})
	}}
}

// contractSuites are the suites of every interface of the contract, the
// optional MemorySearch last: RunTests runs them all on every backend and
// reports MemorySearch as skipped on a backend without it.
var contractSuites = []contractSuite{
	suite("Memories", RunMemoryTests),
	suite("Media", RunMediaTests),
	suite("Idempotency", RunIdempotencyTests),
	suite("Settled", RunSettledTests),
	suite("Screenings", RunScreeningTests),
	suite("Compliance", RunComplianceTests),
	suite("Reports", RunReportTests),
	suite("Anchors", RunAnchorTests),
	suite("RateLimits", RunRateLimitTests),
	suite("Proofs", RunProofTests),
	suite("Watchlists", RunWatchlistTests),
	suite("Webhooks", RunWebhookTests),
	suite("MemorySearch", RunMemorySearchTests),
}

// runContract runs the suites of contractSuites against the stores open
// returns.
func runContract(t *testing.T, open func(t *testing.T) store.Store) {
	for _, s := range contractSuites {
		t.Run(s.name, func(t *testing.T) { s.run(t, open) })
	}
}
