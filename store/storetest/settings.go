package storetest

import (
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
}
