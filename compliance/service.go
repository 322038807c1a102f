package compliance

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/billing"
	"github.com/cairn-dev/cairn/blob"
	"github.com/cairn-dev/cairn/chain"
	"github.com/cairn-dev/cairn/screening"
	"github.com/cairn-dev/cairn/store"
)

// Screening limits (spec 8).
const (
	// MaxAddresses is the most addresses one screening or batch proof
	// request may hold.
	MaxAddresses = 100
	// FreePerWindow is how many addresses a developer screens (or proves)
	// free per FreeWindow.
	FreePerWindow = 10
	// FreeWindow is the length of a free window. A developer's window
	// opens at its first served request and is kept in the store
	// (store.Screenings), so a restart neither resets nor moves it.
	FreeWindow = time.Hour
)

// Principal is who a request acts for: the developer account that pays,
// the agent (empty for a developer token) and the request, recorded on the
// ledger entries.
type Principal struct {
	DeveloperID string
	AgentID     string
	RequestID   string
}

// Usage is the free-window and credit accounting of one served request.
type Usage struct {
	FreeLimit     int       // FreePerWindow
	FreeRemaining int       // free addresses left in the window
	FreeReset     time.Time // when the window ends
	Billable      int       // addresses beyond the free ones
	Charged       int64     // credits taken for them
}

// Service screens addresses and proves their listing. Screening and
// Merkle proofs answer the same question (is this address listed?) and
// are billed alike, through one path.
type Service struct {
	// Screening holds the current list version.
	Screening *screening.Holder
	// Ready reports whether a sanctions list is loaded; nil: always. While
	// it is false every answer is refused (an empty list would say clear).
	Ready func() bool
	// Screenings holds the free windows and the screening count.
	Screenings store.Screenings
	Ledger     *billing.Ledger
	// Proofs keeps the screening proof documents, compressed; nil: they
	// are blobs of their own in Blobs (proofstore.go).
	Proofs store.Proofs
	// Blobs keeps the source snapshots, and the proof documents when
	// Proofs is nil.
	Blobs blob.Store
	// Anchorer publishes the roots on chain; nil: anchoring is off.
	Anchorer chain.Anchorer
	// Oracle keeps the contract's isSanctioned(address) storage in step;
	// nil: it is off (or anchoring is).
	Oracle chain.Oracle
	// PublicURL is the base URL third parties reach the service at (no
	// trailing slash): proof documents name their own URL under it, and
	// the URLs of their snapshots unless Blobs presigns URLs of its own
	// (blob.Presigner). Empty: the blob store's URLs are kept.
	PublicURL string
	// Signer signs the proof documents and publishes its keys; nil: the
	// documents are not signed.
	Signer *Signer
	Clock  cairn.Clock
	Logger *slog.Logger

	tops topCache // the trees' top records (prooftop.go)
	// topLevels is how many of a tree's first levels records leave to its
	// top record (0: the package's topLevels).
	topLevels int
}

// ParseAddress checks one (address, chain): a known chain (EINVALID naming
// it) and an address of the chain's family (EINVALID on field address). It
// returns the family and the canonical address.
func ParseAddress(addr, chain string) (screening.Family, string, error) {
	if addr == "" || chain == "" {
		return "", "", cairn.Errorf(cairn.EINVALID, "address and chain are required.")
	}
	fam, err := screening.ChainFamily(chain)
	if err != nil {
		return "", "", screening.UnknownChain("chain", chain)
	}
	canon, st := screening.Normalize(fam, addr)
	if st == screening.StatusInvalid {
		return "", "", cairn.Errorf(cairn.EINVALID, "%q is not a %s address.", clip(addr), fam).With("field", "address")
	}
	return fam, canon, nil
}

// CheckReady refuses an answer about an address while no sanctions list
// was ever loaded (every source failed): an empty list would say clear.
func (s *Service) CheckReady() error {
	if s.Ready != nil && !s.Ready() {
		return cairn.Errorf(cairn.EUNAVAILABLE, "No sanctions list is loaded (no source is configured, or every source failed so far); screening is refused rather than answered clear.")
	}
	return nil
}

// checkCount checks the number of addresses of a batch.
func checkCount(n int) error {
	if n == 0 || n > MaxAddresses {
		return cairn.Errorf(cairn.EINVALID, "addresses must hold 1 to %d items.", MaxAddresses).With("field", "addresses")
	}
	return nil
}

// checkChains fails a batch on its first unknown chain (EINVALID naming
// it); invalid addresses are answered item by item.
func checkChains(qs []screening.Query) error {
	for i, q := range qs {
		if _, err := screening.ChainFamily(q.Chain); err != nil {
			return screening.UnknownChain(fmt.Sprintf("addresses[%d].chain", i), q.Chain)
		}
	}
	return nil
}

// payment is what one request took: free addresses of the window and a
// charge for the rest.
type payment struct {
	take   cairn.FreeTake
	charge *cairn.LedgerEntry
	usage  Usage
}

// pay takes n addresses' worth: free ones from the developer's window
// first (the store serializes the takes of one developer, so concurrent
// requests never get the same free addresses), then 1 credit per further
// address. EPAYMENT when the balance does not cover them: the free
// addresses are given back and nothing is charged.
func (s *Service) pay(ctx context.Context, p Principal, n int) (*payment, error) {
	now := s.Clock.Now()
	take, err := s.Screenings.TakeFree(ctx, p.DeveloperID, n, FreePerWindow, FreeWindow, now)
	if err != nil {
		return nil, err
	}
	pm := &payment{take: take, usage: Usage{FreeLimit: FreePerWindow, FreeRemaining: take.Remaining, FreeReset: take.Reset,
		Billable: n - take.Free}}
	if pm.usage.Billable > 0 {
		pm.charge, err = s.Ledger.Charge(ctx, p.DeveloperID, p.AgentID, billing.OpScreen, int64(pm.usage.Billable), p.RequestID)
		if err != nil {
			s.giveBack(ctx, p, pm)
			return nil, err
		}
		pm.usage.Charged = int64(pm.usage.Billable)
	}
	return pm, nil
}

// refund undoes a payment whose request was not served: the charge is
// refunded and the free addresses go back to the window. It runs even
// when the client has gone; failures are logged, since the request already
// fails with its own error.
func (s *Service) refund(ctx context.Context, p Principal, pm *payment) {
	ctx = context.WithoutCancel(ctx)
	if pm.charge != nil {
		if _, err := s.Ledger.Refund(ctx, pm.charge, 0, p.RequestID); err != nil {
			s.Logger.ErrorContext(ctx, "refund failed", "charge_id", pm.charge.ID, "err", err)
		}
	}
	s.giveBack(ctx, p, pm)
}

func (s *Service) giveBack(ctx context.Context, p Principal, pm *payment) {
	if pm.take.Free == 0 {
		return
	}
	ctx = context.WithoutCancel(ctx)
	if err := s.Screenings.GiveBackFree(ctx, p.DeveloperID, pm.take.Start, pm.take.Free); err != nil {
		s.Logger.ErrorContext(ctx, "giving back free screening addresses failed", "developer", p.DeveloperID, "n", pm.take.Free, "err", err)
	}
}

func clip(s string) string {
	if len(s) > 64 {
		return s[:64]
	}
	return s
}

// Timestamp is the time format of the answers and proof documents: UTC
// with milliseconds.
func Timestamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }
