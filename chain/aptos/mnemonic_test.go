package aptos

import (
	"regexp"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn"
)

func TestNormalizeMnemonicInvalid(t *testing.T) {
	ts := vectors[0].mnemonic
	for _, tc := range []struct {
		name, in, msg string
	}{
		{"Empty", "", "is empty"},
		{"Blank", " \t\n", "is empty"},
		{"ElevenWords", strings.Repeat("abandon ", 10) + "about", "has 11 words"},
		{"ThirteenWords", ts + " above", "has 13 words"},
		{"UnknownWord", strings.Replace(ts, "position", "xyzzy", 1), "word 3 is not in the BIP-39"},
		{"NonASCIIWord", strings.Replace(ts, "soft", "sóft", 1), "word 4 is not in the BIP-39"},
		{"Checksum", strings.TrimSpace(strings.Repeat("abandon ", 12)), "checksum does not match"},
		{"SwappedWords", strings.Replace(ts, "shoot island", "island shoot", 1), "checksum does not match"},
		{"LastWordChanged", strings.Replace(ts, "above", "about", 1), "checksum does not match"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := NormalizeMnemonic(tc.in)
			if err == nil {
				t.Fatalf("NormalizeMnemonic() = %q, want an error", got)
			}
			if cairn.ErrorCode(err) != cairn.EINVALID {
				t.Errorf("code = %q, want %q", cairn.ErrorCode(err), cairn.EINVALID)
			}
			msg := cairn.ErrorMessage(err)
			if !strings.Contains(msg, tc.msg) {
				t.Errorf("message %q does not say %q", msg, tc.msg)
			}
			for _, w := range []string{"xyzzy", "sóft", "shoot", "island", "abandon"} {
				if strings.Contains(err.Error(), w) {
					t.Errorf("error %q quotes the mnemonic word %q", err, w)
				}
			}
			if _, err := NewHD(tc.in, "mainnet"); cairn.ErrorCode(err) != cairn.EINVALID {
				t.Errorf("NewHD error = %v, want EINVALID", err)
			}
		})
	}
}

func TestNormalizeMnemonicCanonical(t *testing.T) {
	want := vectors[0].mnemonic
	for _, in := range []string{
		want,
		"  " + want + "\n",
		strings.ToUpper(want),
		strings.ReplaceAll(want, " ", " \t "),
	} {
		got, err := NormalizeMnemonic(in)
		if err != nil {
			t.Fatalf("NormalizeMnemonic(%q): %v", in, err)
		}
		if got != want {
			t.Errorf("NormalizeMnemonic(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestGenerateMnemonic(t *testing.T) {
	seen := map[string]bool{}
	for range 8 {
		m, err := GenerateMnemonic()
		if err != nil {
			t.Fatal(err)
		}
		if n := len(strings.Fields(m)); n != 24 {
			t.Fatalf("GenerateMnemonic() has %d words, want 24", n)
		}
		if got, err := NormalizeMnemonic(m); err != nil || got != m {
			t.Fatalf("NormalizeMnemonic(generated) = %q, %v; want it unchanged", got, err)
		}
		if seen[m] {
			t.Fatal("GenerateMnemonic() repeated itself")
		}
		seen[m] = true
	}
}

// errorTemplate is every message NormalizeMnemonic may give, digits aside:
// none of them can carry the mnemonic.
var errorTemplate = regexp.MustCompile(`^deposit mnemonic (` +
	`is empty\.|` +
	`has \d+ words; a BIP-39 mnemonic has 12, 15, 18, 21 or 24\.|` +
	`word \d+ is not in the BIP-39 English word list\.|` +
	`checksum does not match: a word is wrong or out of place\.|` +
	`is not a valid BIP-39 mnemonic\.)$`)

func FuzzNormalizeMnemonic(f *testing.F) {
	for _, v := range vectors {
		f.Add(v.mnemonic)
	}
	f.Add("")
	f.Add(strings.Repeat("zoo ", 24))
	f.Add("abandon\u00a0abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about")
	f.Add("ABANDON abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon ABOUT")
	f.Fuzz(func(t *testing.T, in string) {
		m, err := NormalizeMnemonic(in)
		if err != nil {
			if cairn.ErrorCode(err) != cairn.EINVALID {
				t.Fatalf("code = %q", cairn.ErrorCode(err))
			}
			if msg := cairn.ErrorMessage(err); !errorTemplate.MatchString(msg) {
				t.Fatalf("unexpected message %q", msg)
			}
			return
		}
		if again, err := NormalizeMnemonic(m); err != nil || again != m {
			t.Fatalf("not idempotent: %q -> %q, %v", m, again, err)
		}
		if strings.Join(strings.Fields(m), " ") != m || strings.ToLower(m) != m {
			t.Fatalf("not canonical: %q", m)
		}
	})
}
