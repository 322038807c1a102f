package storetest

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
)

var settingTests = []test{
	{"Setting/ErrNotFound", func(t *testing.T, s store.Store) {
		_, err := s.Setting(ctx, "prices")
		wantCode(t, err, cairn.ENOTFOUND)
	}},
	{"Setting/RoundTrip", func(t *testing.T, s store.Store) {
		for _, tc := range []struct {
			name  string
			value []byte
		}{
			{"prices", []byte(`{"memory.write":5}`)},
			{"prices", []byte(`{"memory.write":7}`)}, // overwrite
			{"binary", []byte{0, 1, 2, 0xff, 0}},
			{"empty", []byte{}},
		} {
			mustOK(t, s.PutSetting(ctx, tc.name, tc.value), "PutSetting")
			got, err := s.Setting(ctx, tc.name)
			mustOK(t, err, "Setting")
			if string(got) != string(tc.value) {
				t.Fatalf("Setting(%q) = %q, want %q", tc.name, got, tc.value)
			}
		}
		_, err := s.Setting(ctx, "price")
		wantCode(t, err, cairn.ENOTFOUND)
	}},
	{"Setting/IfAbsent", func(t *testing.T, s store.Store) {
		got, err := s.PutSettingIfAbsent(ctx, "seed", []byte("first"))
		mustOK(t, err, "PutSettingIfAbsent")
		if string(got) != "first" {
			t.Fatalf("first write: %q", got)
		}
		got, err = s.PutSettingIfAbsent(ctx, "seed", []byte("second"))
		mustOK(t, err, "PutSettingIfAbsent")
		if stored, _ := s.Setting(ctx, "seed"); string(got) != "first" || string(stored) != "first" {
			t.Fatalf("second write: returned %q, stored %q, want the first kept", got, stored)
		}
		// Concurrent writers: one wins, every one sees its value.
		res := make(chan string, 8)
		for i := range 8 {
			go func() {
				v, err := s.PutSettingIfAbsent(ctx, "race", []byte{byte('a' + i)})
				if err != nil {
					res <- "error: " + err.Error()
					return
				}
				res <- string(v)
			}()
		}
		first := <-res
		for range 7 {
			if v := <-res; v != first {
				t.Fatalf("concurrent writers saw %q and %q", first, v)
			}
		}
		if stored, _ := s.Setting(ctx, "race"); string(stored) != first {
			t.Fatalf("stored %q, the writers saw %q", stored, first)
		}
	}},
	{"Setting/Update", func(t *testing.T, s store.Store) {
		_, err := s.UpdateSetting(ctx, "", func(old []byte) ([]byte, error) { return old, nil })
		wantCode(t, err, cairn.EINVALID)
		// fn's error is returned as is and writes nothing, even the row
		// of a setting never set.
		stop := errors.New("stop")
		_, err = s.UpdateSetting(ctx, "u", func([]byte) ([]byte, error) { return []byte("no"), stop })
		if err != stop {
			t.Fatalf("UpdateSetting returned %v, want fn's error", err)
		}
		_, err = s.Setting(ctx, "u")
		wantCode(t, err, cairn.ENOTFOUND)
		for i, tc := range []struct{ old, value []byte }{
			{nil, []byte("one")}, // never set: fn sees nil
			{[]byte("one"), []byte{}},
			{[]byte{}, []byte{0, 0xff}}, // set empty: fn sees empty, not nil
		} {
			got, err := s.UpdateSetting(ctx, "u", func(old []byte) ([]byte, error) {
				if (old == nil) != (tc.old == nil) || string(old) != string(tc.old) {
					t.Errorf("update %d: fn saw %q (nil %t), want %q (nil %t)", i, old, old == nil, tc.old, tc.old == nil)
				}
				return tc.value, nil
			})
			mustOK(t, err, "UpdateSetting")
			stored, err := s.Setting(ctx, "u")
			mustOK(t, err, "Setting")
			if string(got) != string(tc.value) || string(stored) != string(tc.value) {
				t.Fatalf("update %d: returned %q, stored %q, want %q", i, got, stored, tc.value)
			}
		}
		_, err = s.UpdateSetting(ctx, "u", func([]byte) ([]byte, error) { return nil, stop })
		if stored, _ := s.Setting(ctx, "u"); err != stop || string(stored) != "\x00\xff" {
			t.Fatalf("a failed update of a set value: %v, stored %q", err, stored)
		}
	}},
	{"Setting/UpdateConcurrent", func(t *testing.T, s store.Store) {
		// Writers merge keys of their own into one JSON object, starting
		// from no setting at all: every key each wrote survives.
		const writers, rounds = 8, 10
		errs := make(chan error, writers)
		for w := range writers {
			go func() {
				for r := range rounds {
					_, err := s.UpdateSetting(ctx, "merged", func(old []byte) ([]byte, error) {
						m := map[string]int{}
						if old != nil {
							if err := json.Unmarshal(old, &m); err != nil {
								return nil, err
							}
						}
						m[fmt.Sprintf("w%d.r%d", w, r)] = w*rounds + r
						return json.Marshal(m)
					})
					if err != nil {
						errs <- err
						return
					}
				}
				errs <- nil
			}()
		}
		for range writers {
			mustOK(t, <-errs, "UpdateSetting")
		}
		b, err := s.Setting(ctx, "merged")
		mustOK(t, err, "Setting")
		var m map[string]int
		mustOK(t, json.Unmarshal(b, &m), "decode the merged setting")
		for w := range writers {
			for r := range rounds {
				if k := fmt.Sprintf("w%d.r%d", w, r); m[k] != w*rounds+r {
					t.Errorf("%s = %d, want %d: a concurrent update was lost", k, m[k], w*rounds+r)
				}
			}
		}
		if len(m) != writers*rounds {
			t.Fatalf("the merged setting has %d keys, want %d", len(m), writers*rounds)
		}
	}},
}
