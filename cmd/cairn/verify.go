package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/cairn-dev/cairn/merkle"
)

// runVerifyProof checks, offline, a document the service returned:
//   - a Merkle proof (GET /v1/compliance/merkle-proof): the leaf is the
//     OpenZeppelin leaf of (family, canonicalAddress) and the proof leads
//     from it to root;
//   - a screening proof (GET /v1/compliance/proofs/:id): resultsHash is the
//     SHA-256 of its results.
//
// It prints what it checked and exits 0 when everything holds, 1 when not.
func runVerifyProof(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) != 1 {
		fmt.Fprintln(stderr, "usage: cairn verify-proof FILE|-")
		return errUsage
	}
	var in []byte
	var err error
	if args[0] == "-" {
		in, err = io.ReadAll(io.LimitReader(stdin, 64<<20))
	} else {
		in, err = os.ReadFile(args[0])
	}
	if err != nil {
		return err
	}
	var doc struct {
		Family           string          `json:"family"`
		CanonicalAddress string          `json:"canonicalAddress"`
		Leaf             *merkle.Hash    `json:"leaf"`
		Proof            []merkle.Hash   `json:"proof"`
		Root             *merkle.Hash    `json:"root"`
		ResultsHash      string          `json:"resultsHash"`
		Results          json.RawMessage `json:"results"`
	}
	if err := json.Unmarshal(in, &doc); err != nil {
		return fmt.Errorf("not a proof document: %w", err)
	}
	checked := false
	if doc.Root != nil && doc.Leaf != nil {
		checked = true
		leaf := merkle.LeafHashStrings2(doc.Family, doc.CanonicalAddress)
		if leaf != *doc.Leaf {
			return fmt.Errorf("FAIL: leaf %s is not the leaf of (%q, %q), %s", doc.Leaf, doc.Family, doc.CanonicalAddress, leaf)
		}
		if len(doc.Proof) == 0 && doc.Root.String() != leaf.String() {
			fmt.Fprintf(stdout, "not listed: (%s, %s) has no proof under root %s\n", doc.Family, doc.CanonicalAddress, doc.Root)
		} else if !merkle.Verify(*doc.Root, leaf, doc.Proof) {
			return fmt.Errorf("FAIL: the proof does not lead from (%s, %s) to root %s", doc.Family, doc.CanonicalAddress, doc.Root)
		} else {
			fmt.Fprintf(stdout, "OK: (%s, %s) is a leaf of root %s (%d proof hashes)\n", doc.Family, doc.CanonicalAddress, doc.Root, len(doc.Proof))
		}
	}
	if doc.ResultsHash != "" && len(doc.Results) > 0 {
		checked = true
		var compact bytes.Buffer
		if err := json.Compact(&compact, doc.Results); err != nil {
			return err
		}
		sum := sha256.Sum256(compact.Bytes())
		if hex.EncodeToString(sum[:]) != doc.ResultsHash {
			return fmt.Errorf("FAIL: resultsHash %s does not match the results (sha256 %x)", doc.ResultsHash, sum)
		}
		fmt.Fprintf(stdout, "OK: resultsHash %s matches the results\n", doc.ResultsHash)
	}
	if !checked {
		return errors.New("FAIL: the document holds neither a Merkle proof (leaf, proof, root) nor results with a resultsHash")
	}
	return nil
}
