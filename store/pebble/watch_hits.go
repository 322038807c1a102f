package pebble

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
	"github.com/cockroachdb/pebble/v2"
)

// stageAlerts intersects a version's changes with the index of watched
// addresses and stages an alert per (watchlist, address, change) in b.
func (db *DB) stageAlerts(ctx context.Context, b *pebble.Batch, version uint64, added, removed store.Entries) ([]cairn.WatchAlert, error) {
	it, err := db.db.NewIter(&pebble.IterOptions{LowerBound: []byte(watchIndex), UpperBound: prefixEnd([]byte(watchIndex))})
	if err != nil {
		return nil, fmt.Errorf("pebble: iterate watch index: %w", err)
	}
	defer it.Close()
	if !it.First() { // nothing watched
		return nil, it.Error()
	}
	hits, err := watchHits(ctx, it, added, true, nil)
	if err == nil {
		hits, err = watchHits(ctx, it, removed, false, hits)
	}
	if err != nil {
		return nil, err
	}
	alerts := store.BuildAlerts(version, db.clock.Now(), hits)
	for i := range alerts {
		if err := setJSON(b, key(watchAlert, alerts[i].DeveloperID, alerts[i].ID), &alerts[i]); err != nil {
			return nil, err
		}
		// Until the webhooks of the alert are enqueued (FanOutAlerts).
		if err := setJSON(b, key(watchOutbox, alerts[i].ID), &alerts[i]); err != nil {
			return nil, err
		}
	}
	return alerts, nil
}

// watchHits appends to hits the entries of es (in key order) whose
// address is watched, paired with each index entry of the address. It
// leaps: from an entry to the index's next watched address with a seek,
// and from there to the next entry at or after it with a binary search,
// so that its cost follows the smaller of the two sets, not the larger.
func watchHits(ctx context.Context, it *pebble.Iterator, es store.Entries, listed bool, hits []cairn.WatchHit) ([]cairn.WatchHit, error) {
	if es == nil {
		return hits, nil
	}
	if s, ok := es.(store.EntrySlice); ok {
		es = store.EntrySlice(sortedEntries(s))
	}
	n := es.Len()
	for i := 0; i < n; {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		e := es.At(i)
		prefix := key(watchIndex, e.Family, e.Address)
		if !it.SeekGE(prefix) {
			return hits, it.Error()
		}
		if !bytes.HasPrefix(it.Key(), []byte(watchIndex)) {
			return hits, nil // past the index
		}
		if !bytes.HasPrefix(it.Key(), prefix) {
			fam, rest, err := readComponent(it.Key()[len(watchIndex):])
			if err != nil {
				return nil, err
			}
			addr, _, err := readComponent(rest)
			if err != nil {
				return nil, err
			}
			// The next watched address sorts after e: skip to the first
			// change at or after it (at least one step).
			i += max(1, sort.Search(n-i, func(j int) bool {
				x := es.At(i + j)
				return x.Family > fam || x.Family == fam && x.Address >= addr
			}))
			continue
		}
		var watched []cairn.WatchIndexEntry
		for ok := true; ok && bytes.HasPrefix(it.Key(), prefix); ok = it.Next() {
			var w cairn.WatchIndexEntry
			if err := json.Unmarshal(it.Value(), &w); err != nil {
				return nil, fmt.Errorf("pebble: decode watch index: %w", err)
			}
			watched = append(watched, w)
		}
		for ; i < n && es.At(i).Family == e.Family && es.At(i).Address == e.Address; i++ {
			for _, w := range watched {
				hits = append(hits, cairn.WatchHit{WatchIndexEntry: w, Entry: es.At(i), Listed: listed})
			}
		}
	}
	return hits, nil
}
