package evm_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/chain"
	"github.com/cairn-dev/cairn/chain/evm"
	"github.com/cairn-dev/cairn/store"
)

// TestAnchorResentKnown: a node that answers a broadcast of a transaction
// it holds with "transaction underpriced" or "nonce too low" (ganache on a
// re-broadcast) is not a failure; the same answer for a transaction the
// node does not hold is.
func TestAnchorResentKnown(t *testing.T) {
	for _, msg := range []string{"transaction underpriced", "nonce too low", "replacement transaction underpriced"} {
		t.Run(strings.ReplaceAll(msg, " ", "_"), func(t *testing.T) {
			e := newAnchorEnv(t)
			a := e.anchorer(t, e.updater, 1)
			e.backend.sendErr, e.backend.sendErrAfter = errors.New(msg), true
			submit(t, a, 1, chain.Roots{Sanctions: rootA, Community: rootB})
			step(t, a)
			wantStatus(t, a, 1, chain.AnchorSubmitted)
			e.sim.Commit()
			step(t, a)
			wantStatus(t, a, 1, chain.AnchorSynced)
		})
	}
	t.Run("ErrNotHeld", func(t *testing.T) {
		e := newAnchorEnv(t)
		a := e.anchorer(t, e.updater, 1)
		e.backend.sendErr = errors.New("transaction underpriced")
		submit(t, a, 1, chain.Roots{Sanctions: rootA, Community: rootB})
		step(t, a)
		if st := wantStatus(t, a, 1, chain.AnchorFailed); !strings.Contains(st.Error, "underpriced") {
			t.Fatalf("error %q", st.Error)
		}
	})
}

// TestAnchorWaitingLogged: while a mined transaction lacks confirmations,
// one info line per new head says how many blocks it still needs.
func TestAnchorWaitingLogged(t *testing.T) {
	e := newAnchorEnv(t)
	var buf bytes.Buffer
	a := e.anchorerLogging(t, e.updater, 3, slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelInfo})))
	submit(t, a, 1, chain.Roots{Sanctions: rootA, Community: rootB})
	step(t, a)
	e.sim.Commit()
	count := func() int { return strings.Count(buf.String(), "waiting for confirmations") }
	for range 3 {
		step(t, a)
	}
	if count() != 1 || !strings.Contains(buf.String(), "blocks_needed=2") {
		t.Fatalf("after three rounds at one head:\n%s", buf.String())
	}
	e.sim.Commit()
	step(t, a)
	step(t, a)
	if count() != 2 || !strings.Contains(buf.String(), "blocks_needed=1") {
		t.Fatalf("after a new head:\n%s", buf.String())
	}
	e.sim.Commit()
	step(t, a)
	wantStatus(t, a, 1, chain.AnchorSynced)
}

// TestAnchorResignCompareAndSwap: resign drops the transaction it read
// only: when another leader signed a new one meanwhile, the record keeps
// it.
func TestAnchorResignCompareAndSwap(t *testing.T) {
	e := newAnchorEnv(t)
	a := e.anchorer(t, e.updater, 1)
	submit(t, a, 1, chain.Roots{Sanctions: rootA, Community: rootB})
	step(t, a)
	target := evm.Target(e.chainID.Uint64(), e.contract)
	read, err := store.LatestAnchor(ctx, e.db, target)
	if err != nil || read.TxHash == "" {
		t.Fatalf("record %+v %v", read, err)
	}
	// The other leader dropped that transaction and signed another.
	other := "0x" + strings.Repeat("ab", 32)
	if _, err := e.db.UpdateAnchor(ctx, target, 1, func(x *cairn.Anchor) error {
		x.PrevTxHashes = append(x.PrevTxHashes, x.TxHash)
		x.TxHash, x.RawTx, x.Nonce = other, []byte{1, 2, 3}, 9
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := a.Resign(ctx, read, "stale view"); err != nil {
		t.Fatal(err)
	}
	now, _ := store.LatestAnchor(ctx, e.db, target)
	if now.TxHash != other || !bytes.Equal(now.RawTx, []byte{1, 2, 3}) || now.Nonce != 9 || now.Error == "stale view" {
		t.Fatalf("resign of a stale read wiped the other leader's transaction: %+v", now)
	}
	// With the record as it is, resign drops it.
	if err := a.Resign(ctx, now, "replaced"); err != nil {
		t.Fatal(err)
	}
	after, _ := store.LatestAnchor(ctx, e.db, target)
	if after.TxHash != "" || len(after.RawTx) != 0 || after.Status != chain.AnchorPending || after.PrevTxHashes[len(after.PrevTxHashes)-1] != other {
		t.Fatalf("resign: %+v", after)
	}
}

// TestAnchorWarnsOwnerKey: Run warns at start when its key is the
// contract's owner, and says nothing for an updater key.
func TestAnchorWarnsOwnerKey(t *testing.T) {
	e := newAnchorEnv(t)
	const warning = "the anchoring key is the contract's owner"
	var buf syncBuffer
	a := e.anchorerLogging(t, e.owner, 1, slog.New(slog.NewTextHandler(&buf, nil)))
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { a.Run(runCtx); close(done) }()
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(buf.String(), warning); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			cancel()
			t.Fatalf("no warning for the owner's key:\n%s", buf.String())
		}
	}
	cancel()
	<-done
	var quiet syncBuffer
	u := e.anchorerLogging(t, e.updater, 1, slog.New(slog.NewTextHandler(&quiet, nil)))
	u.WarnIfOwner(ctx)
	if strings.Contains(quiet.String(), warning) {
		t.Fatalf("warned for an updater key:\n%s", quiet.String())
	}
}

// syncBuffer is a bytes.Buffer safe for a logger and a reader at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
