package screening

import (
	"encoding/hex"
	"slices"
	"testing"
	"time"
)

// TestIndexEVMAddresses: the EVM addresses of each class, in ascending
// order; an address in both classes is of both trees, one only reported
// by the community of the community tree only, other families of none.
func TestIndexEVMAddresses(t *testing.T) {
	addr := func(b byte) string { return "0x" + hex.EncodeToString(append(make([]byte, 19), b)) }
	m := func(source string) Match {
		return Match{EntityID: "e", Source: source, Category: "sanctions", Severity: "critical"}
	}
	ix, err := Build(1, time.Unix(0, 0), []Listing{
		{EVM, addr(9), m(SourceGovSDN)}, {EVM, addr(3), m(SourceGovSDN)}, {EVM, addr(5), m(SourceGovSDN)},
		{Bitcoin, "1BoatSLRHtKNngkdXEeobR76b53LETtpyT", m(SourceGovSDN)},
	}, []Listing{{EVM, addr(5), m(SourceCommunity)}, {EVM, addr(7), m(SourceCommunity)}})
	if err != nil {
		t.Fatal(err)
	}
	key := func(s string) (k [20]byte) {
		b, _ := hex.DecodeString(s[2:])
		copy(k[:], b)
		return k
	}
	for class, want := range map[string][]string{
		ClassSanctions: {addr(3), addr(5), addr(9)},
		ClassCommunity: {addr(5), addr(7)},
	} {
		var got []string
		for k := range ix.EVMAddresses(class) {
			got = append(got, "0x"+hex.EncodeToString(k[:]))
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: %v, want %v", class, got, want)
		}
		for _, a := range []string{addr(3), addr(5), addr(7), addr(9), addr(4)} {
			if ix.HasEVM(class, key(a)) != slices.Contains(want, a) {
				t.Errorf("HasEVM(%s, %s) = %v", class, a, !slices.Contains(want, a))
			}
		}
	}
	for range ix.EVMAddresses(ClassSanctions) {
		break // stops when asked
	}
	if n := 0; func() bool {
		for range emptyIndex.EVMAddresses(ClassSanctions) {
			n++
		}
		return n != 0
	}() {
		t.Fatal("the empty index has EVM addresses")
	}
}
