package evm

import (
	"bytes"
	"crypto/ecdsa"
	"encoding/hex"
	"fmt"
	"github.com/cairn-dev/cairn/internal/secretfile"

	"github.com/ethereum/go-ethereum/crypto"
)

// ErrInsecureKeyFile is returned, wrapped, when the key file is readable or
// writable by anyone but its owner.
var ErrInsecureKeyFile = secretfile.ErrInsecure

// maxKeyFile bounds what is read: 0x, 64 hex digits and a line end.
const maxKeyFile = 256

// LoadKeyFile reads the secp256k1 private key of the account that sends the
// anchoring (or deployment) transactions: one line of 64 hex digits, with or
// without 0x, surrounding white space ignored. The file must be a regular
// file of mode 0600 or stricter. The key is never logged nor put in an
// error, and the bytes read are cleared.
func LoadKeyFile(path string) (*ecdsa.PrivateKey, error) {
	b, err := secretfile.Read(path, maxKeyFile)
	defer clear(b)
	if err != nil {
		return nil, err
	}
	s := bytes.TrimSpace(b)
	if len(s) >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		s = s[2:]
	}
	raw := make([]byte, hex.DecodedLen(len(s)))
	defer clear(raw)
	if len(s) != 64 {
		return nil, fmt.Errorf("%s: want one private key of 64 hex digits", path)
	}
	if _, err := hex.Decode(raw, s); err != nil {
		return nil, fmt.Errorf("%s: want one private key of 64 hex digits", path)
	}
	key, err := crypto.ToECDSA(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: not a valid secp256k1 private key", path)
	}
	return key, nil
}
