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
}
