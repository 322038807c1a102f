package aptos

import (
	"encoding/hex"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn"
)

func TestAddressDeterministic(t *testing.T) {
	const m = "shoot island position soft burden budget tooth cruel issue economy destroy above"
	a, err := NewHD(m, "mainnet")
	if err != nil {
		t.Fatal(err)
	}
	// Same phrase written differently, on another network: same addresses.
	b, err := NewHD("  SHOOT island\tposition soft burden budget tooth cruel issue economy destroy above\n", "testnet")
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range []uint32{0, 1, 2, 7, 1000, 65535, MaxIndex} {
		x, err := a.Address(i)
		if err != nil {
			t.Fatal(err)
		}
		y, err := b.Address(i)
		if err != nil {
			t.Fatal(err)
		}
		z, _ := a.Address(i)
		if x != y || x != z {
			t.Errorf("index %d: %s, %s, %s differ", i, x, y, z)
		}
	}
}

func TestAddressDistinct(t *testing.T) {
	h, err := NewHD(vectors[1].mnemonic, "mainnet")
	if err != nil {
		t.Fatal(err)
	}
	const n = 1000
	seen := make(map[string]uint32, n)
	for i := uint32(0); i < n; i++ {
		addr, err := h.Address(i)
		if err != nil {
			t.Fatal(err)
		}
		if len(addr) != 66 || !strings.HasPrefix(addr, "0x") || strings.ToLower(addr) != addr {
			t.Fatalf("Address(%d) = %q, want 0x + 64 lower-case hex", i, addr)
		}
		if _, err := hex.DecodeString(addr[2:]); err != nil {
			t.Fatalf("Address(%d) = %q: %v", i, addr, err)
		}
		if j, dup := seen[addr]; dup {
			t.Fatalf("Address(%d) = Address(%d) = %s", i, j, addr)
		}
		seen[addr] = i
	}
	// Another seed shares none of them.
	g, err := NewHD(vectors[0].mnemonic, "mainnet")
	if err != nil {
		t.Fatal(err)
	}
	for i := uint32(0); i < n; i++ {
		addr, _ := g.Address(i)
		if j, dup := seen[addr]; dup {
			t.Fatalf("other seed's Address(%d) = Address(%d) = %s", i, j, addr)
		}
	}
}

func TestAddressIndexRange(t *testing.T) {
	h, err := NewHD(vectors[0].mnemonic, "devnet")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		index uint32
		ok    bool
	}{{0, true}, {MaxIndex, true}, {MaxIndex + 1, false}, {^uint32(0), false}} {
		t.Run(Path(tc.index), func(t *testing.T) {
			_, err := h.Address(tc.index)
			if (err == nil) != tc.ok {
				t.Fatalf("Address(%d) error = %v, want ok=%v", tc.index, err, tc.ok)
			}
		})
	}
}

func TestNewHDNetwork(t *testing.T) {
	for _, tc := range []struct {
		network string
		ok      bool
	}{{"mainnet", true}, {"testnet", true}, {"devnet", true}, {"localnet", true}, {"", false}, {"Mainnet", false}, {"main", false}} {
		t.Run(tc.network, func(t *testing.T) {
			h, err := NewHD(vectors[0].mnemonic, tc.network)
			if !tc.ok {
				if cairn.ErrorCode(err) != cairn.EINVALID {
					t.Fatalf("NewHD(%q) error = %v, want EINVALID", tc.network, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if h.Network() != tc.network {
				t.Errorf("Network() = %q", h.Network())
			}
			if got := h.SupportedTokens(); len(got) != 1 || got[0] != "APT" {
				t.Errorf("SupportedTokens() = %v", got)
			}
		})
	}
}

func TestPath(t *testing.T) {
	for i, want := range map[uint32]string{
		0: "m/44'/637'/0'/0'/0'", 42: "m/44'/637'/42'/0'/0'", MaxIndex: "m/44'/637'/2147483647'/0'/0'",
	} {
		if got := Path(i); got != want {
			t.Errorf("Path(%d) = %q, want %q", i, got, want)
		}
	}
}
