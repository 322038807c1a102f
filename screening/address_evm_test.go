package screening

import (
	"strings"
	"testing"
)

// EIP-55 test vectors.
var eip55Vectors = []string{
	"0x52908400098527886E0F7030069857D2E4169EE7",
	"0x8617E340B3D01FA5F11F306F4090FD50E238070D",
	"0xde709f2102306220921060314715629080e2fb77",
	"0x27b1fdb04752bbc536007a920d24acb045561c26",
	"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
	"0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
	"0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
	"0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
}

func TestEVMEIP55Vectors(t *testing.T) {
	for _, v := range eip55Vectors {
		t.Run(v, func(t *testing.T) {
			want := strings.ToLower(v)
			if c, st := Normalize(EVM, v); st != StatusOK || c != want {
				t.Fatalf("Normalize = %q, %s; want %q, ok", c, st, want)
			}
			if v != strings.ToLower(v) && v[2:] != strings.ToUpper(v[2:]) && eip55(want) != v {
				t.Fatalf("eip55(%s) = %s", want, eip55(want))
			}
		})
	}
}

func TestEVMBadChecksum(t *testing.T) {
	for _, v := range eip55Vectors[4:] { // the mixed-case vectors
		t.Run(v, func(t *testing.T) {
			// Flip the case of the first letter: still mixed case, now wrong.
			b := []byte(v)
			for i := 2; i < len(b); i++ {
				if c := b[i]; c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' {
					b[i] ^= 0x20
					break
				}
			}
			c, st := Normalize(EVM, string(b))
			if st != StatusBadChecksum || c != strings.ToLower(v) {
				t.Fatalf("Normalize(%s) = %q, %s; want %q, bad_checksum", b, c, st, strings.ToLower(v))
			}
		})
	}
}

func TestEVMForms(t *testing.T) {
	const canon = "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed"
	tests := []struct {
		name, in, want string
		st             Status
	}{
		{"OK/Lower", canon, canon, StatusOK},
		{"OK/Upper", "0x5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED", canon, StatusOK},
		{"OK/UpperPrefix", "0X5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED", canon, StatusOK},
		{"OK/NoPrefix", "5aaeb6053f3e94c9b9a09f33669435e7ef1beaed", canon, StatusOK},
		{"OK/Spaces", " \t0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed\r\n", canon, StatusOK},
		{"OK/NBSP", "\u00a00x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed\u00a0", canon, StatusOK},
		{"Err/Short", canon[:41], "", StatusInvalid},
		{"Err/Long", canon + "0", "", StatusInvalid},
		{"Err/NonHex", "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaeg", "", StatusInvalid},
		{"Err/InnerSpace", "0x5aaeb6053f3e94c9b9a09f3 669435e7ef1beaed", "", StatusInvalid},
		{"Err/Prefix0y", "0y5aaeb6053f3e94c9b9a09f33669435e7ef1beaed", "", StatusInvalid},
		{"Err/Empty", "", "", StatusInvalid},
		{"Err/Blank", "   ", "", StatusInvalid},
		{"Err/Unicode", "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaeé", "", StatusInvalid},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, st := Normalize(EVM, tc.in)
			if c != tc.want || st != tc.st {
				t.Fatalf("Normalize(%q) = %q, %s; want %q, %s", tc.in, c, st, tc.want, tc.st)
			}
		})
	}
}

func TestEVMCanonicalAllocatesNothing(t *testing.T) {
	const canon = "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed"
	if n := testing.AllocsPerRun(100, func() { Normalize(EVM, canon) }); n != 0 {
		t.Errorf("canonical input: %v allocs, want 0", n)
	}
	if n := testing.AllocsPerRun(100, func() { Normalize(EVM, eip55Vectors[4]) }); n > 1 {
		t.Errorf("checksummed input: %v allocs, want at most 1", n)
	}
}
