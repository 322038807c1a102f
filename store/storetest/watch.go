package storetest

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
)

// WatchStore is what the watchlist and webhook suites need: the
// watchlists, the webhooks and the list versions whose commits record
// their alerts.
type WatchStore interface {
	store.Watchlists
	store.Webhooks
	store.Compliance
}

// RunWatchlistTests checks a store.Watchlists implementation and the
// alerts CommitListVersion records; open returns a fresh, empty store for
// each subtest.
func RunWatchlistTests(t *testing.T, open func(t *testing.T) WatchStore) {
	ctx := context.Background()
	addr := func(i int) cairn.WatchedAddress {
		a := fmt.Sprintf("0x%040x", i)
		return cairn.WatchedAddress{Family: "evm", Address: a, Input: a, Chain: "ethereum", AddedAt: time.Unix(1, 0).UTC()}
	}
	create := func(t *testing.T, s WatchStore, dev string, addrs ...cairn.WatchedAddress) *cairn.Watchlist {
		t.Helper()
		w := &cairn.Watchlist{ID: cairn.NewID(), DeveloperID: dev, Name: "hot wallets"}
		if err := s.CreateWatchlist(ctx, w, addrs, nil); err != nil {
			t.Fatal(err)
		}
		return w
	}
	t.Run("CreateGetList", func(t *testing.T) { watchCreateGetList(t, open(t), create, addr) })
	t.Run("AddRemove", func(t *testing.T) { watchAddRemove(t, open(t), create, addr) })
	t.Run("ConcurrentCharges", func(t *testing.T) { watchConcurrentCharges(t, open(t), create, addr) })
	t.Run("Delete", func(t *testing.T) {
		s := open(t)
		w := create(t, s, "d1", addr(1), addr(2))
		if err := s.DeleteWatchlist(ctx, "d2", w.ID); !cairn.IsCode(err, cairn.ENOTFOUND) {
			t.Fatalf("another account's delete: %v", err)
		}
		if err := s.DeleteWatchlist(ctx, "d1", w.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Watchlist(ctx, "d1", w.ID); !cairn.IsCode(err, cairn.ENOTFOUND) {
			t.Fatalf("deleted watchlist: %v", err)
		}
		if n, err := s.WatchedCount(ctx, "d1"); err != nil || n != 0 {
			t.Fatalf("watched after delete: %d %v", n, err)
		}
		if err := s.DeleteWatchlist(ctx, "d1", w.ID); !cairn.IsCode(err, cairn.ENOTFOUND) {
			t.Fatalf("second delete: %v", err)
		}
	})
	t.Run("Alerts", func(t *testing.T) { watchAlerts(t, open(t), create, addr) })
	t.Run("NewDetails", func(t *testing.T) { watchNewDetails(t, open(t), create, addr) })
}

type watchCreate func(t *testing.T, s WatchStore, dev string, addrs ...cairn.WatchedAddress) *cairn.Watchlist

func watchCreateGetList(t *testing.T, s WatchStore, create watchCreate, addr func(int) cairn.WatchedAddress) {
	ctx := context.Background()
	w := create(t, s, "d1", addr(2), addr(1), addr(2))
	if w.Addresses != 2 {
		t.Fatalf("addresses %d, want 2 (a duplicate kept once)", w.Addresses)
	}
	got, err := s.Watchlist(ctx, "d1", w.ID)
	if err != nil || got.Name != "hot wallets" || got.Addresses != 2 || got.DeveloperID != "d1" {
		t.Fatalf("get %+v %v", got, err)
	}
	if _, err := s.Watchlist(ctx, "d2", w.ID); !cairn.IsCode(err, cairn.ENOTFOUND) {
		t.Fatalf("another account's watchlist: %v", err)
	}
	w2 := create(t, s, "d1")
	create(t, s, "d2", addr(1))
	ws, err := s.ListWatchlists(ctx, "d1", "", 1)
	if err != nil || len(ws) != 1 || ws[0].ID != w.ID {
		t.Fatalf("first page %+v %v", ws, err)
	}
	ws, err = s.ListWatchlists(ctx, "d1", w.ID, 10)
	if err != nil || len(ws) != 1 || ws[0].ID != w2.ID {
		t.Fatalf("second page %+v %v", ws, err)
	}
	as, err := s.WatchedAddresses(ctx, "d1", w.ID, "", 1)
	if err != nil || len(as) != 1 || as[0] != addr(1) {
		t.Fatalf("addresses page %+v %v", as, err)
	}
	as, err = s.WatchedAddresses(ctx, "d1", w.ID, store.WatchPosition(as[0]), 10)
	if err != nil || len(as) != 1 || as[0] != addr(2) {
		t.Fatalf("addresses second page %+v %v", as, err)
	}
	if _, err := s.WatchedAddresses(ctx, "d2", w.ID, "", 10); !cairn.IsCode(err, cairn.ENOTFOUND) {
		t.Fatalf("another account's addresses: %v", err)
	}
	if n, err := s.WatchedCount(ctx, "d1"); err != nil || n != 2 {
		t.Fatalf("watched count %d %v", n, err)
	}
}

func watchAddRemove(t *testing.T, s WatchStore, create watchCreate, addr func(int) cairn.WatchedAddress) {
	ctx := context.Background()
	w := create(t, s, "d1", addr(1))
	charged := 0
	charge := func(before, n int) error {
		if before != 1+charged {
			t.Errorf("charge of %d told %d held before, want %d", n, before, 1+charged)
		}
		charged += n
		return nil
	}
	n, err := s.AddWatchedAddresses(ctx, "d1", w.ID, []cairn.WatchedAddress{addr(1), addr(2), addr(3), addr(3)}, 3, charge)
	if err != nil || n != 2 || charged != 2 {
		t.Fatalf("added %d (charged %d) %v, want 2", n, charged, err)
	}
	if _, err := s.AddWatchedAddresses(ctx, "d1", w.ID, []cairn.WatchedAddress{addr(4)}, 3, charge); !cairn.IsCode(err, cairn.ETOOLARGE) || charged != 2 {
		t.Fatalf("beyond the limit: %v (charged %d)", err, charged)
	}
	if _, err := s.AddWatchedAddresses(ctx, "d2", w.ID, []cairn.WatchedAddress{addr(4)}, 10, nil); !cairn.IsCode(err, cairn.ENOTFOUND) {
		t.Fatalf("another account's add: %v", err)
	}
	refused := func(int, int) error { return cairn.Errorf(cairn.EPAYMENT, "no credits") }
	if _, err := s.AddWatchedAddresses(ctx, "d1", w.ID, []cairn.WatchedAddress{addr(5)}, 10, refused); !cairn.IsCode(err, cairn.EPAYMENT) {
		t.Fatalf("a refused charge: %v", err)
	}
	as, _ := s.WatchedAddresses(ctx, "d1", w.ID, "", 10)
	if len(as) != 3 {
		t.Fatalf("addresses after a refused add: %+v", as)
	}
	n, err = s.RemoveWatchedAddresses(ctx, "d1", w.ID, []cairn.WatchedAddress{addr(2), addr(9), addr(2)})
	if err != nil || n != 1 {
		t.Fatalf("removed %d %v, want 1", n, err)
	}
	got, _ := s.Watchlist(ctx, "d1", w.ID)
	if got.Addresses != 2 {
		t.Fatalf("count %d, want 2", got.Addresses)
	}
	if n, _ := s.WatchedCount(ctx, "d1"); n != 2 {
		t.Fatalf("watched count %d, want 2", n)
	}
}

func watchAlerts(t *testing.T, s WatchStore, create watchCreate, addr func(int) cairn.WatchedAddress) {
	ctx := context.Background()
	w1 := create(t, s, "d1", addr(1), addr(2))
	w2 := create(t, s, "d2", addr(1))
	gone := create(t, s, "d3", addr(1))
	if err := s.DeleteWatchlist(ctx, "d3", gone.ID); err != nil {
		t.Fatal(err)
	}
	entry := func(i int, source, entity string) cairn.ListEntry {
		return cairn.ListEntry{Family: "evm", Address: addr(i).Address, Source: source, EntityID: entity, Category: "sanctions", Severity: "critical"}
	}
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	added := []cairn.ListEntry{entry(1, "gov_sdn", "e1"), entry(1, "aggregated_sanctions", "e2"), entry(2, "community", "c1"), entry(3, "gov_sdn", "e3")}
	if err := s.CommitListVersion(ctx, cairn.ListVersion{Version: 1, BuiltAt: at}, added, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.CommitListVersion(ctx, cairn.ListVersion{Version: 2, BuiltAt: at.Add(time.Hour)}, nil, added[:1]); err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, dev := range []string{"d1", "d2", "d3"} {
		as, err := s.Alerts(ctx, dev, "", 10)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range as {
			var ids []string
			for _, e := range a.Entries {
				ids = append(ids, e.EntityID)
			}
			slices.Sort(ids)
			got[dev] = append(got[dev], fmt.Sprintf("%s %d %s %s %v", a.WatchlistID[len(a.WatchlistID)-4:], a.ListVersion, a.Address[len(a.Address)-1:], a.Change, ids))
			if a.DeveloperID != dev || a.Chain != "ethereum" || a.Input != addr(1).Address && a.Input != addr(2).Address {
				t.Errorf("alert %+v", a)
			}
		}
		slices.Sort(got[dev])
	}
	s1, s2 := w1.ID[len(w1.ID)-4:], w2.ID[len(w2.ID)-4:]
	want := map[string][]string{
		"d1": {s1 + " 1 1 sanctioned [e1 e2]", s1 + " 1 2 community [c1]", s1 + " 2 1 delisted [e1]"},
		"d2": {s2 + " 1 1 sanctioned [e1 e2]", s2 + " 2 1 delisted [e1]"},
	}
	slices.Sort(want["d1"])
	slices.Sort(want["d2"])
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("alerts\n got %v\nwant %v", got, want)
	}
	// Newest first, paged by id.
	first, _ := s.Alerts(ctx, "d1", "", 1)
	rest, _ := s.Alerts(ctx, "d1", first[0].ID, 10)
	if len(first) != 1 || first[0].ListVersion != 2 || len(rest) != 2 || rest[0].ID >= first[0].ID {
		t.Fatalf("pages %+v %+v", first, rest)
	}
}

// watchNewDetails: an entry added again with new details (programs, entity
// name) is not listed again, so it raises no alert, while the entries the
// same version truly lists do, at the same watched address or another.
func watchNewDetails(t *testing.T, s WatchStore, create watchCreate, addr func(int) cairn.WatchedAddress) {
	ctx := context.Background()
	w := create(t, s, "d1", addr(1), addr(2), addr(3))
	entry := func(i int, entity, programs string) cairn.ListEntry {
		return cairn.ListEntry{Family: "evm", Address: addr(i).Address, Source: "gov_sdn", EntityID: entity, EntityName: "Lazarus",
			Programs: cairn.Programs(programs), Category: "sanctions", Severity: "critical"}
	}
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	if err := s.CommitListVersion(ctx, cairn.ListVersion{Version: 1, BuiltAt: at}, []cairn.ListEntry{entry(1, "e1", ""), entry(3, "e3", "")}, nil); err != nil {
		t.Fatal(err)
	}
	renamed := entry(3, "e3", "DPRK3")
	renamed.EntityName = "Lazarus Group"
	added := []cairn.ListEntry{entry(1, "e1", "DPRK3"), entry(1, "e4", ""), entry(2, "e2", "CYBER2"), renamed}
	if err := s.CommitListVersion(ctx, cairn.ListVersion{Version: 2, BuiltAt: at.Add(time.Hour)}, added, nil); err != nil {
		t.Fatal(err)
	}
	if v, err := s.LastListVersion(ctx); err != nil || v.Added != 2 {
		t.Fatalf("version 2 %+v %v, want 2 added", v, err)
	}
	as, err := s.Alerts(ctx, "d1", "", 10)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range as {
		var ids []string
		for _, e := range a.Entries {
			ids = append(ids, e.EntityID)
		}
		slices.Sort(ids)
		got = append(got, fmt.Sprintf("%d %s %s %v", a.ListVersion, a.Address[len(a.Address)-1:], a.Change, ids))
		if a.WatchlistID != w.ID {
			t.Errorf("alert %+v", a)
		}
	}
	slices.Sort(got)
	want := []string{"1 1 sanctioned [e1]", "1 3 sanctioned [e3]", "2 1 sanctioned [e4]", "2 2 sanctioned [e2]"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("alerts\n got %v\nwant %v", got, want)
	}
}

// watchConcurrentCharges: concurrent creates and adds of one account, over
// several watchlists, each see as held before it exactly what the changes
// committed before it added: the counts a charge is told, sorted, are
// 0, k, 2k, ... (no two changes count the same addresses), and the
// account ends with them all.
func watchConcurrentCharges(t *testing.T, s WatchStore, create watchCreate, addr func(int) cairn.WatchedAddress) {
	ctx := context.Background()
	lists := []*cairn.Watchlist{create(t, s, "d1"), create(t, s, "d1")}
	const changes, each = 8, 5
	var mu sync.Mutex
	var befores []int
	charge := func(before, n int) error {
		if n != each {
			return fmt.Errorf("charged %d, want %d", n, each)
		}
		mu.Lock()
		befores = append(befores, before)
		mu.Unlock()
		return nil
	}
	var wg sync.WaitGroup
	errs := make(chan error, changes)
	for i := range changes {
		wg.Go(func() {
			batch := make([]cairn.WatchedAddress, each)
			for j := range batch {
				batch[j] = addr(1000 + i*each + j)
			}
			var err error
			if i%4 == 3 {
				err = s.CreateWatchlist(ctx, &cairn.Watchlist{ID: cairn.NewID(), DeveloperID: "d1", Name: "more"}, batch, charge)
			} else {
				_, err = s.AddWatchedAddresses(ctx, "d1", lists[i%2].ID, batch, 1000, charge)
			}
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	slices.Sort(befores)
	for i, b := range befores {
		if b != i*each {
			t.Fatalf("the charges were told %v held before; want 0, %d, %d, ...", befores, each, 2*each)
		}
	}
	if n, err := s.WatchedCount(ctx, "d1"); err != nil || n != changes*each || len(befores) != changes {
		t.Fatalf("watched %d (%v) after %d charges, want %d", n, err, len(befores), changes*each)
	}
}
