package aptos

import (
	"errors"
	"fmt"

	"github.com/aptos-labs/aptos-go-sdk/crypto/hd"
	"github.com/cairn-dev/cairn"
	"github.com/tyler-smith/go-bip39"
)

// mnemonicEntropyBits is the strength of generated mnemonics: 256 bits, 24
// words.
const mnemonicEntropyBits = 256

// GenerateMnemonic returns a new 24-word BIP-39 English mnemonic drawn from
// crypto/rand.
func GenerateMnemonic() (string, error) {
	entropy, err := bip39.NewEntropy(mnemonicEntropyBits)
	if err != nil {
		return "", fmt.Errorf("deposit mnemonic: entropy: %w", err)
	}
	defer clear(entropy)
	m, err := bip39.NewMnemonic(entropy)
	if err != nil {
		return "", fmt.Errorf("deposit mnemonic: %w", err)
	}
	return m, nil
}

// NormalizeMnemonic checks that s is a valid BIP-39 English mnemonic (word
// count, word list, checksum) and returns it in canonical form: lower case,
// words separated by single spaces. Errors are *cairn.Error with code
// EINVALID; their messages never quote the mnemonic or any of its words.
func NormalizeMnemonic(s string) (string, error) {
	m := hd.NormalizeMnemonic(s)
	if m == "" {
		return "", cairn.Errorf(cairn.EINVALID, "deposit mnemonic is empty.")
	}
	words := 1
	for i := 0; i < len(m); i++ {
		if m[i] == ' ' {
			words++
		}
	}
	switch words {
	case 12, 15, 18, 21, 24:
	default:
		return "", cairn.Errorf(cairn.EINVALID,
			"deposit mnemonic has %d words; a BIP-39 mnemonic has 12, 15, 18, 21 or 24.", words)
	}
	pos := 0
	for i, start := 0, 0; i <= len(m); i++ {
		if i < len(m) && m[i] != ' ' {
			continue
		}
		pos++
		if _, ok := bip39.GetWordIndex(m[start:i]); !ok {
			return "", cairn.Errorf(cairn.EINVALID,
				"deposit mnemonic word %d is not in the BIP-39 English word list.", pos)
		}
		start = i + 1
	}
	entropy, err := bip39.EntropyFromMnemonic(m)
	clear(entropy)
	switch {
	case errors.Is(err, bip39.ErrChecksumIncorrect):
		return "", cairn.Errorf(cairn.EINVALID,
			"deposit mnemonic checksum does not match: a word is wrong or out of place.")
	case err != nil:
		// Word count and word list were checked above; the library's own
		// message may quote a word, so it is not passed on.
		return "", cairn.Errorf(cairn.EINVALID, "deposit mnemonic is not a valid BIP-39 mnemonic.")
	}
	return m, nil
}
