package cairn_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
)

func TestErrorCode(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		code string
		msg  string
	}{
		{"Nil", nil, "", ""},
		{"Plain", errors.New("disk on fire"), cairn.EINTERNAL, "Internal error."},
		{"Cairn", cairn.Errorf(cairn.ENOTFOUND, "Memory %s not found.", "x"), cairn.ENOTFOUND, "Memory x not found."},
		{"Wrapped", fmt.Errorf("ctx: %w", cairn.Errorf(cairn.ECONFLICT, "dup")), cairn.ECONFLICT, "dup"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := cairn.ErrorCode(tc.err); got != tc.code {
				t.Fatalf("code = %q, want %q", got, tc.code)
			}
			if got := cairn.ErrorMessage(tc.err); got != tc.msg {
				t.Fatalf("message = %q, want %q", got, tc.msg)
			}
		})
	}
}

func TestErrorWithCopies(t *testing.T) {
	base := cairn.Errorf(cairn.EPAYMENT, "short")
	a := base.With("required", 5)
	b := a.With("available", 2)
	if base.Details != nil || len(a.Details) != 1 || len(b.Details) != 2 {
		t.Fatalf("With must copy: base=%v a=%v b=%v", base.Details, a.Details, b.Details)
	}
}

func TestNewIDSortsAndValidates(t *testing.T) {
	prev := cairn.NewID()
	seen := map[string]bool{prev: true}
	for i := 0; i < 20000; i++ {
		id := cairn.NewID()
		if !cairn.ValidID(id) {
			t.Fatalf("invalid id %q", id)
		}
		if id <= prev {
			t.Fatalf("ids not increasing: %q then %q", prev, id)
		}
		if seen[id] {
			t.Fatalf("duplicate id %q", id)
		}
		if id[14] != '7' || !strings.ContainsRune("89ab", rune(id[19])) {
			t.Fatalf("not a v7 UUID: %q", id)
		}
		seen[id], prev = true, id
	}
}

func TestValidID(t *testing.T) {
	for s, want := range map[string]bool{
		"0190d6b2-5c4e-7a1b-8c3d-0123456789ab":  true,
		"0190D6B2-5C4E-7A1B-8C3D-0123456789AB":  false,
		"0190d6b2-5c4e-7a1b-8c3d-0123456789a":   false,
		"0190d6b2x5c4e-7a1b-8c3d-0123456789ab":  false,
		"../../etc/passwd":                      false,
		"":                                      false,
		"0190d6b2-5c4e-7a1b-8c3d-0123456789ab0": false,
	} {
		if got := cairn.ValidID(s); got != want {
			t.Errorf("ValidID(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestCursors(t *testing.T) {
	type state struct {
		Seq uint64 `json:"s"`
	}
	c := cairn.NewCursors([]byte("0123456789abcdef0123456789abcdef"))
	s := c.Encode(state{Seq: 42})
	var got state
	if err := c.Decode(s, &got); err != nil || got.Seq != 42 {
		t.Fatalf("round trip: %v %v", got, err)
	}
	other := cairn.NewCursors([]byte("another key, another server....."))
	for name, bad := range map[string]string{
		"Empty":     "",
		"NotBase64": "!!!",
		"Truncated": s[:len(s)-2],
		"Flipped":   flip(s),
		"OtherKey":  other.Encode(state{Seq: 42}),
	} {
		t.Run(name, func(t *testing.T) {
			if err := c.Decode(bad, &got); !cairn.IsCode(err, cairn.EINVALID) {
				t.Fatalf("Decode(%q) = %v, want EINVALID", bad, err)
			}
		})
	}
}

func flip(s string) string {
	b := []byte(s)
	if b[3] == 'A' {
		b[3] = 'B'
	} else {
		b[3] = 'A'
	}
	return string(b)
}

func FuzzCursorDecode(f *testing.F) {
	c := cairn.NewCursors([]byte("0123456789abcdef0123456789abcdef"))
	f.Add(c.Encode(map[string]int{"a": 1}))
	f.Add("")
	f.Fuzz(func(t *testing.T, s string) {
		var v map[string]any
		if err := c.Decode(s, &v); err != nil && !cairn.IsCode(err, cairn.EINVALID) {
			t.Fatalf("unexpected error kind: %v", err)
		}
	})
}

func TestManualClock(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	c := cairn.NewManualClock(t0)
	c.Advance(time.Hour)
	if !c.Now().Equal(t0.Add(time.Hour)) {
		t.Fatalf("Advance: %v", c.Now())
	}
}

func TestNewRandomID(t *testing.T) {
	seen := map[string]bool{}
	for range 1000 {
		id := cairn.NewRandomID()
		if !cairn.ValidID(id) || id[14] != '4' || !strings.ContainsRune("89ab", rune(id[19])) || seen[id] {
			t.Fatalf("NewRandomID %q: not a fresh RFC 9562 version 4 UUID", id)
		}
		seen[id] = true
	}
}

// TestListEntryCompare: entries order by family, address, source, entity
// id, byte-wise ("10" before "2", "Z" before "a"), whatever the other
// fields hold.
func TestListEntryCompare(t *testing.T) {
	e := func(f, a, s, id string) cairn.ListEntry {
		return cairn.ListEntry{Family: f, Address: a, Source: s, EntityID: id, Category: f + a}
	}
	sorted := []cairn.ListEntry{e("bitcoin", "z", "a", "1"), e("evm", "0xa", "gov_sdn", "10"), e("evm", "0xa", "gov_sdn", "2"),
		e("evm", "0xa", "list:x", ""), e("evm", "0xb", "a", ""), e("evm", "Z", "a", ""), e("evm", "a", "a", "")}
	for i := range sorted {
		for j := range sorted {
			want := 0
			switch {
			case i < j:
				want = -1
			case i > j:
				want = 1
			}
			if got := sorted[i].Compare(sorted[j]); got != want {
				t.Errorf("%+v.Compare(%+v) = %d, want %d", sorted[i], sorted[j], got, want)
			}
		}
	}
}

// TestUpstream: a failure is EUPSTREAM with the caller's message and the
// cause in the chain; kept codes, bare cancellations and nil pass as they
// are.
func TestUpstream(t *testing.T) {
	cause := errors.New("disk on fire")
	for _, tc := range []struct {
		name     string
		err      error
		keep     []string
		code     string
		same     bool
		msg      string
		chainsIt bool
	}{
		{"Raw", cause, nil, cairn.EUPSTREAM, false, "Reading failed.", true},
		{"Kept", cairn.Errorf(cairn.ENOTFOUND, "gone"), []string{cairn.ENOTFOUND}, cairn.ENOTFOUND, true, "gone", false},
		{"NotKept", cairn.Errorf(cairn.ENOTFOUND, "gone"), []string{cairn.EINVALID}, cairn.EUPSTREAM, false, "Reading failed.", false},
		{"UpstreamRenamed", cairn.Errorf(cairn.EUPSTREAM, "s3: get failed"), nil, cairn.EUPSTREAM, false, "Reading failed.", false},
		{"Canceled", fmt.Errorf("s3: get: %w", context.Canceled), nil, cairn.EINTERNAL, true, "Internal error.", false},
		{"Deadline", context.DeadlineExceeded, nil, cairn.EINTERNAL, true, "Internal error.", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := cairn.Upstream(tc.err, "Reading failed.", tc.keep...)
			if cairn.ErrorCode(got) != tc.code || cairn.ErrorMessage(got) != tc.msg || (got == tc.err) != tc.same ||
				!errors.Is(got, tc.err) || tc.chainsIt && !errors.Is(got, cause) {
				t.Fatalf("Upstream(%v) = %v (code %s, message %q)", tc.err, got, cairn.ErrorCode(got), cairn.ErrorMessage(got))
			}
		})
	}
	if cairn.Upstream(nil, "x") != nil {
		t.Fatal("Upstream(nil) is not nil")
	}
}

// TestAnchorTarget: an anchor record's chain and contract are read from
// its Target, an oracle record's too; a target of another form names none.
func TestAnchorTarget(t *testing.T) {
	want := map[string]string{"1337:0xabc0": "1337 0xabc0", "1:0xdef1/oracle": "1 0xdef1", "": "0 ", "x:0xabc0": "0 ", "0xabc0": "0 "}
	for target, w := range want {
		a := cairn.Anchor{Target: target}
		if got := fmt.Sprint(a.ChainID(), " ", a.Contract()); got != w {
			t.Errorf("Anchor{Target: %q}: chain and contract %q, want %q", target, got, w)
		}
	}
}
