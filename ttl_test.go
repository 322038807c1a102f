package cairn_test

import (
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
)

func TestParseTTL(t *testing.T) {
	day := 24 * time.Hour
	for in, want := range map[string]time.Duration{
		"1s": time.Second, "90s": 90 * time.Second, "15m": 15 * time.Minute, "1h": time.Hour, "24h": day,
		"7d": 7 * day, "30d": 30 * day, "90d": 90 * day, "2w": 14 * day, "3650d": 3650 * day, "007d": 7 * day,
	} {
		if got, err := cairn.ParseTTL(in); err != nil || got != want {
			t.Errorf("ParseTTL(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "d", "0d", "-1d", "+1d", "1.5h", "1 d", "1D", "1y", "1ms", "h1", "3651d",
		"99999999999w", "1d1h", "１d", "1\x00d"} {
		if _, err := cairn.ParseTTL(in); !cairn.IsCode(err, cairn.EINVALID) {
			t.Errorf("ParseTTL(%q) = %v, want EINVALID", in, err)
		}
	}
}

func FuzzParseTTL(f *testing.F) {
	for _, s := range []string{"1s", "24h", "30d", "2w", "0d", "-1h", "99999999999999999999d"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := cairn.ParseTTL(s)
		if err != nil {
			if !cairn.IsCode(err, cairn.EINVALID) {
				t.Fatalf("error kind: %v", err)
			}
			return
		}
		if d <= 0 || d > cairn.MaxTTL {
			t.Fatalf("ParseTTL(%q) = %v out of range", s, d)
		}
	})
}
