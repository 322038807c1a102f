package merkle

import (
	"bytes"
	"encoding/json"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
)

// gethArgs packs with go-ethereum's accounts/abi, the reference encoder.
func gethArgs(t *testing.T, types []string) abi.Arguments {
	t.Helper()
	var args abi.Arguments
	for _, s := range types {
		ty, err := abi.NewType(s, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		args = append(args, abi.Argument{Type: ty})
	}
	return args
}

// randomValue returns the same value twice: as AbiEncode takes it and as
// go-ethereum's Pack takes it.
func randomValue(r *rand.Rand, ty string) (ours, geth any) {
	switch ty {
	case TypeString:
		s := strings.Repeat("é\"x\x00<", 20)[:r.IntN(100)]
		return s, s
	case TypeBytes:
		b := make([]byte, r.IntN(70))
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		if r.IntN(2) == 0 {
			return "0x" + common.Bytes2Hex(b), b
		}
		return b, b
	case TypeAddress:
		var a common.Address
		for i := range a {
			a[i] = byte(r.Uint32())
		}
		if r.IntN(2) == 0 {
			return [20]byte(a), a
		}
		return a.Hex(), a // mixed-case checksum form
	case TypeUint256:
		var w [32]byte
		for i := range w {
			w[i] = byte(r.Uint32())
		}
		n := new(big.Int).SetBytes(w[:])
		n.Rsh(n, uint(r.IntN(257)))
		switch r.IntN(4) {
		case 0:
			return n.String(), n
		case 1:
			return "0x" + n.Text(16), n
		case 2:
			return json.Number(n.String()), n
		}
		return n, n
	case TypeBytes32:
		var h [32]byte
		for i := range h {
			h[i] = byte(r.Uint32())
		}
		if r.IntN(2) == 0 {
			return Hash(h).String(), h
		}
		return h, h
	default: // bool
		b := r.IntN(2) == 0
		return b, b
	}
}

func TestAbiEncodeMatchesGeth(t *testing.T) {
	all := []string{TypeString, TypeBytes, TypeAddress, TypeUint256, TypeBytes32, TypeBool}
	r := rand.New(rand.NewPCG(1, 2))
	for _, types := range [][]string{
		{"string", "string"}, {"address"}, {"address", "address"}, {"uint256"}, {"bytes32"}, {"bool"},
		{"address", "uint256"}, {"string", "address", "bytes", "bool", "bytes32", "uint256", "string"},
	} {
		t.Run(strings.Join(types, ","), func(t *testing.T) {
			args := gethArgs(t, types)
			for range 200 {
				ours, geth := make([]any, len(types)), make([]any, len(types))
				for i, ty := range types {
					ours[i], geth[i] = randomValue(r, ty)
				}
				want, err := args.Pack(geth...)
				if err != nil {
					t.Fatal(err)
				}
				got, err := AbiEncode(nil, types, ours)
				if err != nil || !bytes.Equal(got, want) {
					t.Fatalf("%v: got %x (%v)\nwant %x", ours, got, err, want)
				}
			}
		})
	}
	t.Run("RandomTypes", func(t *testing.T) {
		for range 300 {
			types := make([]string, 1+r.IntN(6))
			for i := range types {
				types[i] = all[r.IntN(len(all))]
			}
			args := gethArgs(t, types)
			ours, geth := make([]any, len(types)), make([]any, len(types))
			for i, ty := range types {
				ours[i], geth[i] = randomValue(r, ty)
			}
			want, _ := args.Pack(geth...)
			got, err := AbiEncode(nil, types, ours)
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("%v %v: got %x (%v)\nwant %x", types, ours, got, err, want)
			}
		}
	})
}

func TestLeafHashStrings2(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, tc := range [][2]string{
		{"", ""}, {"evm", "0xd882cfc20f52f2599d84b8e8d58c7fb62cfe344b"}, {strings.Repeat("a", 32), strings.Repeat("b", 33)},
		{"bitcoin", "bc1q" + strings.Repeat("x", 58)}, {strings.Repeat("z", 300), "y"},
	} {
		want, err := StandardLeafHash(Strings2, []any{tc[0], tc[1]})
		if err != nil {
			t.Fatal(err)
		}
		if got := LeafHashStrings2(tc[0], tc[1]); got != want {
			t.Errorf("%q: %s, want %s", tc, got, want)
		}
	}
	for range 500 {
		a, b := strings.Repeat("q", r.IntN(100)), strings.Repeat("é", r.IntN(100))
		want, _ := StandardLeafHash(Strings2, []any{a, b})
		if got := LeafHashStrings2(a, b); got != want {
			t.Fatalf("%d,%d: mismatch", len(a), len(b))
		}
	}
}

func TestAbiEncodeErrors(t *testing.T) {
	for _, tc := range []struct {
		name   string
		types  []string
		values []any
	}{
		{"NoTypes", nil, nil},
		{"UnknownType", []string{"uint8"}, []any{1}},
		{"Arity", []string{"string"}, []any{"a", "b"}},
		{"AddressShort", []string{"address"}, []any{"0x1234"}},
		{"AddressNoPrefix", []string{"address"}, []any{strings.Repeat("1", 40)}},
		{"AddressNotHex", []string{"address"}, []any{"0x" + strings.Repeat("g", 40)}},
		{"AddressGoType", []string{"address"}, []any{42}},
		{"Bytes32Short", []string{"bytes32"}, []any{"0x00"}},
		{"UintNegative", []string{"uint256"}, []any{-1}},
		{"UintTooBig", []string{"uint256"}, []any{"0x1" + strings.Repeat("0", 64)}},
		{"UintNotNumber", []string{"uint256"}, []any{"12a"}},
		{"UintSign", []string{"uint256"}, []any{"+1"}},
		{"UintEmpty", []string{"uint256"}, []any{""}},
		{"BoolGoType", []string{"bool"}, []any{"true"}},
		{"StringGoType", []string{"string"}, []any{[]byte("x")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := StandardLeafHash(tc.types, tc.values); err == nil {
				t.Error("no error")
			}
		})
	}
}

func TestLeafHashStrings3(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	check := func(a, b, c string) {
		t.Helper()
		want, err := StandardLeafHash(Strings3, []any{a, b, c})
		if err != nil {
			t.Fatal(err)
		}
		if got := LeafHashStrings3(a, b, c); got != want {
			t.Fatalf("%d,%d,%d: %s, want %s", len(a), len(b), len(c), got, want)
		}
		triple := func(_ int, s []byte) (string, []byte, []byte) {
			s = append(s, b...)
			return a, s[:len(b)], append(s, c...)[len(b):]
		}
		got := LeafHashesStrings3Func(1, triple)
		if got[0] != want {
			t.Fatalf("%d,%d,%d: func form %s, want %s", len(a), len(b), len(c), got[0], want)
		}
		if tr, err := BuildStrings3Func(1, triple); err != nil || tr.Root() != want {
			t.Fatalf("%d,%d,%d: tree of one leaf: %v", len(a), len(b), len(c), err)
		}
	}
	for _, tc := range [][3]string{
		{"", "", ""}, {"evm", "", ""}, {"evm", "", "0xd882cfc20f52f2599d84b8e8d58c7fb62cfe344b"},
		{"evm", "0x0ee5067b06776a89ccc7dc8ee369984ad7db5e06", "0x12d66f87a04a9e220743712ce6d9bb1b5616b8fc"},
		{strings.Repeat("a", 32), strings.Repeat("b", 33), strings.Repeat("c", 64)}, {"bitcoin", "bc1q" + strings.Repeat("x", 58), ""},
	} {
		check(tc[0], tc[1], tc[2])
	}
	for range 500 {
		check(strings.Repeat("q", r.IntN(70)), strings.Repeat("é", r.IntN(70)), strings.Repeat("z", r.IntN(300)))
	}
}
