package storetest

import (
	"errors"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
)

// RunAnchorTests checks a store.Anchors implementation; open returns a
// fresh, empty store for each subtest.
func RunAnchorTests(t *testing.T, open func(t *testing.T) store.Anchors) {
	const target, other = "1337:0x5fbdb2315678afecb367f032d93f642f64180aa3", "1:0x5fbdb2315678afecb367f032d93f642f64180aa3"
	at := time.Date(2026, 3, 4, 5, 6, 7, 123456000, time.UTC)
	anchor := func(v uint64) cairn.Anchor {
		return cairn.Anchor{Target: target, ListVersion: v, Status: "pending",
			SanctionsRoot: "0x" + string(rune('a'+v%26)) + "1", CommunityRoot: "0x00", ExclusionRoot: "0xe" + string(rune('a'+v%26)),
			CommunityExclusionRoot: "0xce", CreatedAt: at.Add(time.Duration(v) * time.Minute)}
	}
	versions := func(as []cairn.Anchor) []uint64 {
		out := []uint64{}
		for _, a := range as {
			out = append(out, a.ListVersion)
		}
		return out
	}
	t.Run("Empty", func(t *testing.T) {
		s := open(t)
		_, err := store.LatestAnchor(ctx, s, target)
		wantCode(t, err, cairn.ENOTFOUND)
		as, err := s.ListAnchors(ctx, target, 0, 10)
		if err != nil || len(as) != 0 {
			t.Fatalf("ListAnchors of an empty store = %v, %v", as, err)
		}
		_, err = s.UpdateAnchor(ctx, target, 1, func(*cairn.Anchor) error { return nil })
		wantCode(t, err, cairn.ENOTFOUND)
	})
	t.Run("CreateOnlyForward", func(t *testing.T) {
		s := open(t)
		for _, v := range []uint64{1, 2, 5} {
			mustOK(t, s.CreateAnchor(ctx, anchor(v)), "CreateAnchor")
		}
		for _, v := range []uint64{5, 3, 1} {
			a := anchor(v)
			a.Status = "synced"
			wantCode(t, s.CreateAnchor(ctx, a), cairn.ECONFLICT)
		}
		if got, _ := s.ListAnchors(ctx, target, 0, 10); got[0].Status != "pending" || !reflect.DeepEqual(versions(got), []uint64{5, 2, 1}) {
			t.Fatalf("a refused create changed the records: %+v", got)
		}
		// Targets are independent.
		o := anchor(1)
		o.Target = other
		mustOK(t, s.CreateAnchor(ctx, o), "CreateAnchor of another target")
		wantCode(t, s.CreateAnchor(ctx, cairn.Anchor{ListVersion: 9}), cairn.EINVALID)
		wantCode(t, s.CreateAnchor(ctx, cairn.Anchor{Target: target}), cairn.EINVALID)

		last, err := store.LatestAnchor(ctx, s, target)
		mustOK(t, err, "LatestAnchor")
		if !reflect.DeepEqual(last, anchor(5)) {
			t.Fatalf("LatestAnchor = %+v, want %+v", last, anchor(5))
		}
		if last, _ := store.LatestAnchor(ctx, s, other); last.ListVersion != 1 || last.Target != other {
			t.Fatalf("LatestAnchor(other) = %+v", last)
		}
		for _, tc := range []struct {
			before uint64
			limit  int
			want   []uint64
		}{{0, 10, []uint64{5, 2, 1}}, {0, 2, []uint64{5, 2}}, {5, 10, []uint64{2, 1}}, {2, 10, []uint64{1}}, {1, 10, []uint64{}}, {100, 1, []uint64{5}}, {0, 0, []uint64{}}} {
			got, err := s.ListAnchors(ctx, target, tc.before, tc.limit)
			mustOK(t, err, "ListAnchors")
			if !reflect.DeepEqual(versions(got), tc.want) {
				t.Errorf("ListAnchors(before %d, limit %d) = %v, want %v", tc.before, tc.limit, versions(got), tc.want)
			}
		}
	})
	t.Run("CreatedAtStamped", func(t *testing.T) {
		s := open(t)
		a := anchor(1)
		a.CreatedAt = time.Time{}
		mustOK(t, s.CreateAnchor(ctx, a), "CreateAnchor")
		got, _ := store.LatestAnchor(ctx, s, target)
		if got.CreatedAt.IsZero() {
			t.Fatal("CreatedAt left zero")
		}
	})
	t.Run("UpdateRoundTrip", func(t *testing.T) {
		s := open(t)
		mustOK(t, s.CreateAnchor(ctx, anchor(3)), "CreateAnchor")
		want := anchor(3)
		want.Status, want.From, want.Nonce = "submitted", "0x90f8bf6a479f320ead074411a4b0e7944ea8c9c1", 7
		want.ExclusionRoot, want.CommunityExclusionRoot = "0xe2", "0xce2"
		want.RawTx, want.TxHash = []byte{0x02, 0xf8, 0, 0xff}, "0xabc"
		want.PrevTxHashes = []string{"0x01", "0x02"}
		want.BlockNumber, want.Attempts, want.Error = 12, 2, "rpc: connection refused"
		want.NextAttempt, want.SubmittedAt, want.SyncedAt = at.Add(time.Hour), at.Add(time.Second), at.Add(2*time.Second)
		got, err := s.UpdateAnchor(ctx, target, 3, func(a *cairn.Anchor) error {
			if !reflect.DeepEqual(*a, anchor(3)) {
				t.Errorf("fn got %+v", *a)
			}
			*a = want
			a.Target, a.ListVersion = other, 99 // cannot change
			return nil
		})
		mustOK(t, err, "UpdateAnchor")
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("UpdateAnchor returned %+v, want %+v", got, want)
		}
		if last, _ := store.LatestAnchor(ctx, s, target); !reflect.DeepEqual(last, want) {
			t.Fatalf("stored %+v, want %+v", last, want)
		}
		if _, err := store.LatestAnchor(ctx, s, other); !cairn.IsCode(err, cairn.ENOTFOUND) {
			t.Fatal("the update moved the record to another target")
		}
		// fn's error is returned and nothing is written.
		boom := errors.New("boom")
		_, err = s.UpdateAnchor(ctx, target, 3, func(a *cairn.Anchor) error { a.Status = "failed"; return boom })
		if !errors.Is(err, boom) {
			t.Fatalf("UpdateAnchor error = %v, want fn's", err)
		}
		if last, _ := store.LatestAnchor(ctx, s, target); last.Status != "submitted" {
			t.Fatalf("a failed update wrote %q", last.Status)
		}
		_, err = s.UpdateAnchor(ctx, target, 4, func(*cairn.Anchor) error { return nil })
		wantCode(t, err, cairn.ENOTFOUND)
	})
	t.Run("Concurrent", func(t *testing.T) {
		s := open(t)
		// Racing creates of one version: exactly one wins.
		var wg sync.WaitGroup
		var mu sync.Mutex
		wins := 0
		for range 8 {
			wg.Go(func() {
				err := s.CreateAnchor(ctx, anchor(4))
				mu.Lock()
				defer mu.Unlock()
				if err == nil {
					wins++
				} else if !cairn.IsCode(err, cairn.ECONFLICT) {
					t.Errorf("CreateAnchor: %v", err)
				}
			})
		}
		wg.Wait()
		if wins != 1 {
			t.Fatalf("%d racing creates of one version succeeded, want 1", wins)
		}
		// Racing updates lose nothing.
		for range 10 {
			wg.Go(func() {
				_, err := s.UpdateAnchor(ctx, target, 4, func(a *cairn.Anchor) error { a.Attempts++; return nil })
				if err != nil {
					t.Errorf("UpdateAnchor: %v", err)
				}
			})
		}
		wg.Wait()
		if last, _ := store.LatestAnchor(ctx, s, target); last.Attempts != 10 {
			t.Fatalf("Attempts = %d after 10 racing increments", last.Attempts)
		}
	})
}
