package ingest

import (
	"fmt"
	"io"
	"strings"
)

const ftmWalletSchema = "CryptoWallet"

// ParseFtM reads OpenSanctions FollowTheMoney JSON lines and emits one Record
// (source aggregated_sanctions) per (holder, currency, publicKey) of every
// CryptoWallet entity. The holder's name comes from the holder entity in the
// same file, which may come before or after the wallet.
//
// When r is an io.ReadSeeker (a file), the stream is read twice: first the
// wallets and the set of holder ids, then only those holders' names, so
// memory is bounded by wallets plus holder names. Otherwise one pass keeps
// the name of every non-wallet entity until the end. Records are emitted once
// the input has been read without error; a line that is not JSON is an
// error, a JSON line of an unexpected shape is skipped and counted.
func ParseFtM(r io.Reader, emit func(Record) error) (Stats, error) {
	st := newStats()
	var wallets []ftmWallet
	names := map[string]string{}
	rs, twoPass := r.(io.ReadSeeker)
	var start int64
	if twoPass {
		var err error
		if start, err = rs.Seek(0, io.SeekCurrent); err != nil {
			twoPass = false
		}
	}
	var e ftmLine
	err := forEachFtMLine(r, func(n int, line []byte) error {
		st.EntitiesSeen++
		if err := decodeFtMLine(n, line, &e); err != nil {
			if err == errShape {
				st.skip("unexpected entity shape")
				return nil
			}
			return err
		}
		if e.Schema != ftmWalletSchema {
			if n := e.displayName(); !twoPass && n != "" && e.ID != "" {
				names[e.ID] = n
			}
			return nil
		}
		wallets = append(wallets, compactWallet(&e, names))
		return nil
	})
	if err != nil {
		return st, err
	}
	if twoPass && len(wallets) > 0 {
		if err := resolveHolderNames(rs, start, wallets, names); err != nil {
			return st, err
		}
	}
	return st, emitWallets(wallets, names, &st, emit)
}

func compactWallet(e *ftmLine, names map[string]string) ftmWallet {
	holders, inline := parseHolders(e.Properties.Holder)
	for id, n := range inline {
		names[id] = n
	}
	return ftmWallet{id: e.ID, keys: e.Properties.PublicKey, currencies: e.Properties.Currency,
		holders: holders, topics: e.Properties.Topics, datasets: e.Datasets}
}

// resolveHolderNames rereads the stream for the names of the wallets' holders.
func resolveHolderNames(rs io.ReadSeeker, start int64, wallets []ftmWallet, names map[string]string) error {
	want := map[string]bool{}
	for _, w := range wallets {
		for _, h := range w.holders {
			if _, ok := names[h]; !ok {
				want[h] = true
			}
		}
	}
	if len(want) == 0 {
		return nil
	}
	if _, err := rs.Seek(start, io.SeekStart); err != nil {
		return fmt.Errorf("ftm: rewind: %w", err)
	}
	var e ftmLine
	return forEachFtMLine(rs, func(n int, line []byte) error {
		if err := decodeFtMLine(n, line, &e); err != nil {
			return nil // reported by the first pass
		}
		if want[e.ID] && e.Schema != ftmWalletSchema {
			if n := e.displayName(); n != "" {
				names[e.ID] = n
			}
		}
		return nil
	})
}

func emitWallets(wallets []ftmWallet, names map[string]string, st *Stats, emit func(Record) error) error {
	em := newEmitter(emit, st)
	entities := map[string]bool{}
	for _, w := range wallets {
		if len(w.keys) == 0 {
			st.skip("wallet without publicKey")
			continue
		}
		if len(w.currencies) == 0 {
			st.skip("wallet without currency")
			continue
		}
		holders := w.holders
		if len(holders) == 0 {
			holders = []string{""}
			st.Warnings["wallet without holder"]++
		}
		for _, h := range holders {
			id, name := h, names[h]
			if h == "" {
				id = w.id
			} else if name == "" {
				st.Warnings["holder not found"]++
			}
			if !entities[id] {
				entities[id] = true
				st.Entities++
			}
			for _, cur := range w.currencies {
				for _, key := range w.keys {
					err := em.add(Record{Source: SourceAggregated, EntityID: id, EntityName: name,
						Ticker: strings.ToUpper(strings.TrimSpace(cur)), Address: key,
						Topics: w.topics, Datasets: w.datasets})
					if err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}
