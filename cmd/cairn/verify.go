package main

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/chain/evm"
	"github.com/cairn-dev/cairn/compliance"
	"github.com/cairn-dev/cairn/merkle"
	"github.com/cairn-dev/cairn/screening"
	"github.com/ethereum/go-ethereum/common"
)

// maxVerifyFetch bounds a document or snapshot verify-proof downloads.
const maxVerifyFetch = 1 << 30

// verifyDoc is what verify-proof reads of a Merkle proof or a screening
// proof document.
type verifyDoc struct {
	// A Merkle proof (GET /v1/compliance/merkle-proof).
	Family           string        `json:"family"`
	CanonicalAddress string        `json:"canonicalAddress"`
	Leaf             *merkle.Hash  `json:"leaf"`
	Proof            []merkle.Hash `json:"proof"`
	Root             *merkle.Hash  `json:"root"`
	// Listed and Sanctioned are what the answer claims.
	Listed     *bool `json:"listed"`
	Sanctioned *bool `json:"sanctioned"`
	// ExclusionProof and CommunityExclusionProof prove that the address
	// is not in the sanctions or the community tree.
	ExclusionProof          *verifyGap `json:"exclusionProof"`
	CommunityExclusionProof *verifyGap `json:"communityExclusionProof"`
	// A screening proof (GET /v1/compliance/proofs/:id).
	ResultsHash   string                            `json:"resultsHash"`
	Results       json.RawMessage                   `json:"results"`
	MerkleRoot    string                            `json:"merkleRoot"`
	SanctionsRoot string                            `json:"sanctionsRoot"`
	CommunityRoot string                            `json:"communityRoot"`
	MerkleProofs  map[string]compliance.ResultProof `json:"merkleProofs"`
	// Of both: the roots of the exclusion trees.
	ExclusionRoot          string `json:"exclusionRoot"`
	CommunityExclusionRoot string `json:"communityExclusionRoot"`
	// ExclusionProofs holds, by class, the multiproof of the gaps of the
	// results that are not in that class's tree (absent from documents
	// stored before clear results were proven).
	ExclusionProofs map[string]compliance.GapResultProof `json:"exclusionProofs"`
	DataSources     []string                             `json:"dataSources"`
	DataSnapshots   map[string]struct {
		StorageURL string `json:"storageUrl"`
		SHA256     string `json:"sha256"`
	} `json:"dataSnapshots"`
}

// verifyGap is an exclusion proof of one address: the gap value (family,
// low, high), its leaf and its path to root.
type verifyGap struct {
	Value [3]string     `json:"value"`
	Leaf  merkle.Hash   `json:"leaf"`
	Proof []merkle.Hash `json:"proof"`
	Root  merkle.Hash   `json:"root"`
}

// runVerifyProof checks a document the service returned, read from a file,
// stdin or a URL (a screening proof's proofUrl needs no account):
//   - a Merkle proof (GET /v1/compliance/merkle-proof): the leaf is the
//     OpenZeppelin leaf of (family, canonicalAddress) and the proof leads
//     from it to root; each exclusion proof's gap holds the address and
//     leads to the exclusion root the document names;
//   - a screening proof (GET /v1/compliance/proofs/:id): resultsHash is the
//     SHA-256 of its results; each result's status agrees with its
//     matches; every listed result is a leaf of the multiproof of its
//     class (merkleProofs), which leads to the root the document names for
//     that class; every result that no sanctions source lists lies in a
//     gap of the sanctions exclusion multiproof (exclusionProofs), and,
//     when the community list was consulted, every clear one in a gap of
//     the community one, each leading to the exclusion root the document
//     names; and every data snapshot, fetched from its storageUrl, has the
//     digest the document names (--offline skips the fetch).
//
// It prints what it checked and exits 0 when everything holds, 1 when not.
func runVerifyProof(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("verify-proof", flag.ContinueOnError)
	fs.SetOutput(stderr)
	offline := fs.Bool("offline", false, "do not fetch the data snapshots to check their digests")
	keysURL := fs.String("keys-url", "", "where the issuer publishes its signing keys (default: GET /v1/compliance/signing-keys at the origin of the document's proofUrl, or of the URL it was read from)")
	keyHex := fs.String("key", "", "trust this Ed25519 public key (64 hex digits) for the signature instead of fetching the published ones")
	evmURL := fs.String("evm-rpc-url", "", "with --evm-contract: also check on that chain that the verifier contract recorded the screening proof's roots for its list version (its RootsUpdated events)")
	evmContract := fs.String("evm-contract", "", "the verifier contract's address, with --evm-rpc-url")
	evmFrom := fs.Uint64("evm-from-block", 0, "with --evm-rpc-url: the first block the contract's events are read from (the contract's deployment block, for a node that limits the range of a log query)")
	unsigned := fs.Bool("allow-unsigned", false, "accept a screening proof without a signature (documents stored before they were signed); its results are then not bound to the issuer")
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "usage: cairn verify-proof [--offline] [--keys-url URL | --key HEX] [--allow-unsigned] [--evm-rpc-url URL --evm-contract ADDR] FILE|-|URL")
		return errUsage
	}
	if (*evmURL == "") != (*evmContract == "") {
		fmt.Fprintln(stderr, "--evm-rpc-url and --evm-contract go together")
		return errUsage
	}
	if *evmContract != "" && !common.IsHexAddress(*evmContract) {
		fmt.Fprintf(stderr, "--evm-contract %q is not a 0x-prefixed 20-byte hex address\n", *evmContract)
		return errUsage
	}
	in, err := readSource(fs.Arg(0), stdin)
	if err != nil {
		return err
	}
	var doc verifyDoc
	if err := json.Unmarshal(in, &doc); err != nil {
		return fmt.Errorf("not a proof document: %w", err)
	}
	// anchored checks the document's roots on chain, with --evm-rpc-url.
	anchored := func(claimOf func([]byte) (rootsClaim, error)) error {
		if *evmURL == "" {
			return nil
		}
		claim, err := claimOf(in)
		if err != nil {
			return err
		}
		return verifyAnchored(claim, *evmURL, common.HexToAddress(*evmContract), *evmFrom, stdout)
	}
	checked := false
	if doc.Root != nil && doc.Leaf != nil {
		checked = true
		if err := verifyMerkleProof(&doc, *evmURL != "", stdout); err != nil {
			return err
		}
		if err := verifyAddressExclusion(&doc, stdout); err != nil {
			return err
		}
		if err := anchored(proofClaim); err != nil {
			return err
		}
	}
	if doc.ResultsHash != "" && len(doc.Results) > 0 {
		checked = true
		for _, check := range []func(*verifyDoc, io.Writer) error{verifyResultsHash, verifyStatuses, verifyResultProofs, verifyResultExclusions} {
			if err := check(&doc, stdout); err != nil {
				return err
			}
		}
		if err := verifySnapshots(&doc, *offline, stdout); err != nil {
			return err
		}
		if err := verifySignature(in, fs.Arg(0), signatureOptions{keysURL: *keysURL, key: *keyHex, allowUnsigned: *unsigned}, stdout); err != nil {
			return err
		}
		if err := anchored(screeningClaim); err != nil {
			return err
		}
	}
	if !checked {
		return errors.New("FAIL: the document holds neither a Merkle proof (leaf, proof, root) nor results with a resultsHash")
	}
	return nil
}

// readSource reads a file, stdin ("-") or an http(s) URL.
func readSource(src string, stdin io.Reader) ([]byte, error) {
	switch {
	case src == "-":
		return io.ReadAll(io.LimitReader(stdin, 64<<20))
	case strings.HasPrefix(src, "http://") || strings.HasPrefix(src, "https://"):
		rc, err := fetchURL(src)
		if err != nil {
			return nil, err
		}
		defer rc.Close()
		return io.ReadAll(io.LimitReader(rc, 64<<20))
	default:
		return os.ReadFile(src)
	}
}

// fetchURL opens an http(s) URL. Nothing else is followed: the URLs come
// from the document under check, which must not make the verifier read
// its own files.
func fetchURL(raw string) (io.ReadCloser, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, err
	}
	switch u.Scheme {
	case "http", "https":
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, raw, nil)
		if err != nil {
			cancel()
			return nil, err
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			cancel()
			return nil, err
		}
		if resp.StatusCode != http.StatusOK {
			resp.Body.Close()
			cancel()
			return nil, fmt.Errorf("GET %s: %s", raw, resp.Status)
		}
		return struct {
			io.Reader
			io.Closer
		}{io.LimitReader(resp.Body, maxVerifyFetch), closerFunc(func() error { cancel(); return resp.Body.Close() })}, nil
	}
	return nil, fmt.Errorf("unsupported URL scheme %q", u.Scheme)
}

type closerFunc func() error

func (f closerFunc) Close() error { return f() }

// verifyMerkleProof checks a Merkle proof's leaf and path. onChain tells
// that its roots are checked on chain afterwards (--evm-rpc-url): without
// that, a lone leaf that is its own root (an empty proof) fails, for
// anyone can write such a document of any address.
func verifyMerkleProof(doc *verifyDoc, onChain bool, stdout io.Writer) error {
	leaf := merkle.LeafHashStrings2(doc.Family, doc.CanonicalAddress)
	claimed := (doc.Listed != nil && *doc.Listed) || (doc.Sanctioned != nil && *doc.Sanctioned)
	switch {
	case leaf != *doc.Leaf:
		return fmt.Errorf("FAIL: leaf %s is not the leaf of (%q, %q), %s", doc.Leaf, doc.Family, doc.CanonicalAddress, leaf)
	case len(doc.Proof) == 0 && doc.Root.String() != leaf.String():
		if claimed {
			return fmt.Errorf("FAIL: the answer says (%s, %s) is listed but holds no proof of it", doc.Family, doc.CanonicalAddress)
		}
		fmt.Fprintf(stdout, "not listed: (%s, %s) has no proof under root %s\n", doc.Family, doc.CanonicalAddress, doc.Root)
	case !merkle.Verify(*doc.Root, leaf, doc.Proof):
		return fmt.Errorf("FAIL: the proof does not lead from (%s, %s) to root %s", doc.Family, doc.CanonicalAddress, doc.Root)
	case doc.Listed != nil && !*doc.Listed:
		return fmt.Errorf("FAIL: the answer says (%s, %s) is not listed, yet proves it a leaf of root %s", doc.Family, doc.CanonicalAddress, doc.Root)
	case len(doc.Proof) == 0 && !onChain:
		return fmt.Errorf("FAIL: the proof is empty and root %s is the leaf itself: a tree of one leaf, which anyone can write of any address; check that root on chain (--evm-rpc-url and --evm-contract)", doc.Root)
	default:
		fmt.Fprintf(stdout, "OK: (%s, %s) is a leaf of root %s (%d proof hashes)\n", doc.Family, doc.CanonicalAddress, doc.Root, len(doc.Proof))
	}
	return nil
}

// verifyStatuses checks that each result's status agrees with its
// matches: clear and invalid_address have none, flagged only community
// ones, sanctioned at least one of a sanctions source.
func verifyStatuses(doc *verifyDoc, stdout io.Writer) error {
	var results []screening.Result
	if err := json.Unmarshal(doc.Results, &results); err != nil {
		return fmt.Errorf("FAIL: the results do not decode: %w", err)
	}
	for i, r := range results {
		sanctions, community := 0, 0
		for _, m := range r.Matches {
			if screening.SanctionsSource(m.Source) {
				sanctions++
			} else {
				community++
			}
		}
		ok := false
		switch r.Status {
		case screening.StatusClear, screening.StatusInvalidAddress:
			ok = sanctions+community == 0
		case screening.StatusFlagged:
			ok = sanctions == 0 && community > 0
		case screening.StatusSanctioned:
			ok = sanctions > 0
		}
		if !ok {
			return fmt.Errorf("FAIL: result %d (%s, %s) is %q with %d sanctions and %d community match(es)", i, r.Family, r.Canonical,
				r.Status, sanctions, community)
		}
	}
	fmt.Fprintf(stdout, "OK: every result's status agrees with its matches\n")
	return nil
}

// inGap reports whether the gap (low, high) of family holds canon: "" is
// an open end, the comparison byte by byte.
func inGap(v [3]string, family, canon string) bool {
	return v[0] == family && canon != "" && (v[1] == "" || v[1] < canon) && (v[2] == "" || canon < v[2])
}

// verifyAddressExclusion checks the exclusion proofs of a Merkle proof
// answer: each gap holds the address, its leaf is the gap's, and its
// proof leads to the exclusion root the answer names.
func verifyAddressExclusion(doc *verifyDoc, stdout io.Writer) error {
	for _, e := range []struct {
		class string
		gap   *verifyGap
		root  string
	}{{screening.ClassSanctions, doc.ExclusionProof, doc.ExclusionRoot}, {screening.ClassCommunity, doc.CommunityExclusionProof, doc.CommunityExclusionRoot}} {
		g := e.gap
		if g == nil {
			continue
		}
		switch {
		case !inGap(g.Value, doc.Family, doc.CanonicalAddress):
			return fmt.Errorf("FAIL: the %s exclusion gap %q does not hold (%s, %s)", e.class, g.Value, doc.Family, doc.CanonicalAddress)
		case g.Leaf != merkle.LeafHashStrings3(g.Value[0], g.Value[1], g.Value[2]):
			return fmt.Errorf("FAIL: the %s exclusion leaf %s is not the leaf of the gap %q", e.class, g.Leaf, g.Value)
		case e.root != "" && g.Root.String() != e.root:
			return fmt.Errorf("FAIL: the %s exclusion proof is against root %s, the answer names %s", e.class, g.Root, e.root)
		case !merkle.Verify(g.Root, g.Leaf, g.Proof):
			return fmt.Errorf("FAIL: the %s exclusion proof does not lead from the gap %q to root %s", e.class, g.Value, g.Root)
		}
		fmt.Fprintf(stdout, "OK: (%s, %s) is not in the %s tree: its gap %q is a leaf of exclusion root %s\n", doc.Family, doc.CanonicalAddress,
			e.class, g.Value, g.Root)
	}
	if doc.ExclusionProof == nil && len(doc.Proof) == 0 {
		fmt.Fprintln(stdout, "note: no exclusionProof: that the address is not listed is not proven")
	}
	return nil
}

// verifyResultExclusions checks that every result the document calls
// not sanctioned lies in a gap of the sanctions exclusion multiproof, and
// (when the community list was consulted) every clear one in a gap of the
// community one, and that each multiproof leads to the exclusion root the
// document names.
func verifyResultExclusions(doc *verifyDoc, stdout io.Writer) error {
	var results []screening.Result
	if err := json.Unmarshal(doc.Results, &results); err != nil {
		return fmt.Errorf("FAIL: the results do not decode: %w", err)
	}
	if doc.ExclusionProofs == nil {
		for _, r := range results {
			if r.Status == screening.StatusClear {
				fmt.Fprintln(stdout, "note: no exclusionProofs in this document (stored before they were kept): its clear results are not proven")
				break
			}
		}
		return nil
	}
	roots := map[string]string{screening.ClassSanctions: doc.ExclusionRoot, screening.ClassCommunity: doc.CommunityExclusionRoot}
	for class, mp := range doc.ExclusionProofs {
		root, ok := roots[class]
		if !ok || mp.Root.String() != root {
			return fmt.Errorf("FAIL: the %s exclusion proof is against root %s, the document names %q", class, mp.Root, root)
		}
		if len(mp.Values) != len(mp.Leaves) {
			return fmt.Errorf("FAIL: the %s exclusion proof has %d leaves and %d values", class, len(mp.Leaves), len(mp.Values))
		}
		for i, v := range mp.Values {
			if merkle.LeafHashStrings3(v[0], v[1], v[2]) != mp.Leaves[i] {
				return fmt.Errorf("FAIL: leaf %d of the %s exclusion proof is not the leaf of the gap %q", i, class, v)
			}
		}
		if !merkle.VerifyMultiProof(mp.Root, merkle.MultiProof{Leaves: mp.Leaves, Proof: mp.Proof, ProofFlags: mp.ProofFlags}) {
			return fmt.Errorf("FAIL: the %s exclusion multiproof does not lead to root %s", class, mp.Root)
		}
	}
	community := slices.Contains(doc.DataSources, screening.SourceCommunity)
	proven := map[string]int{}
	for _, r := range results {
		if r.Status == screening.StatusInvalidAddress {
			continue
		}
		var need []string
		switch r.Status {
		case screening.StatusClear:
			need = append(need, screening.ClassSanctions)
			if community {
				need = append(need, screening.ClassCommunity)
			}
		case screening.StatusFlagged:
			need = append(need, screening.ClassSanctions)
		}
		for _, class := range need {
			if !slices.ContainsFunc(doc.ExclusionProofs[class].Values, func(v [3]string) bool { return inGap(v, string(r.Family), r.Canonical) }) {
				return fmt.Errorf("FAIL: the %s result (%s, %s) lies in no gap of the %s exclusion proof: its absence from the %s tree is not proven",
					r.Status, r.Family, r.Canonical, class, class)
			}
			proven[class]++
		}
	}
	for _, class := range []string{screening.ClassSanctions, screening.ClassCommunity} {
		if n := proven[class]; n > 0 {
			fmt.Fprintf(stdout, "OK: %d result(s) proven absent from the %s tree against exclusion root %s\n", n, class, roots[class])
		}
	}
	return nil
}

func verifyResultsHash(doc *verifyDoc, stdout io.Writer) error {
	var compact bytes.Buffer
	if err := json.Compact(&compact, doc.Results); err != nil {
		return err
	}
	sum := sha256.Sum256(compact.Bytes())
	if hex.EncodeToString(sum[:]) != doc.ResultsHash {
		return fmt.Errorf("FAIL: resultsHash %s does not match the results (sha256 %x)", doc.ResultsHash, sum)
	}
	fmt.Fprintf(stdout, "OK: resultsHash %s matches the results\n", doc.ResultsHash)
	return nil
}

// verifyResultProofs checks that every listed result is a leaf of the
// multiproof of its class and that each multiproof leads to the root the
// document names for its class.
func verifyResultProofs(doc *verifyDoc, stdout io.Writer) error {
	var results []screening.Result
	if err := json.Unmarshal(doc.Results, &results); err != nil {
		return fmt.Errorf("FAIL: the results do not decode: %w", err)
	}
	want := map[string][][2]string{}
	for _, r := range results {
		for _, m := range r.Matches {
			class := screening.ClassSanctions
			if m.Source == screening.SourceCommunity {
				class = screening.ClassCommunity
			}
			if v := [2]string{string(r.Family), r.Canonical}; !slices.Contains(want[class], v) {
				want[class] = append(want[class], v)
			}
		}
	}
	if doc.MerkleProofs == nil {
		if len(want) > 0 {
			fmt.Fprintln(stdout, "note: no merkleProofs in this document (stored before they were kept): the listed results are not proven")
		}
		return nil
	}
	roots := map[string]string{screening.ClassSanctions: cmp.Or(doc.SanctionsRoot, doc.MerkleRoot), screening.ClassCommunity: doc.CommunityRoot}
	for class, vs := range want {
		mp, ok := doc.MerkleProofs[class]
		if !ok {
			return fmt.Errorf("FAIL: %d listed result(s) of class %s and no Merkle proof of that class", len(vs), class)
		}
		for _, v := range vs {
			if !slices.Contains(mp.Values, v) {
				return fmt.Errorf("FAIL: the listed result (%s, %s) is not a leaf of the %s proof", v[0], v[1], class)
			}
		}
	}
	for class, mp := range doc.MerkleProofs {
		root, ok := roots[class]
		if !ok || mp.Root.String() != root {
			return fmt.Errorf("FAIL: the %s proof is against root %s, the document names %q", class, mp.Root, root)
		}
		if len(mp.Values) != len(mp.Leaves) {
			return fmt.Errorf("FAIL: the %s proof has %d leaves and %d values", class, len(mp.Leaves), len(mp.Values))
		}
		for i, v := range mp.Values {
			if merkle.LeafHashStrings2(v[0], v[1]) != mp.Leaves[i] {
				return fmt.Errorf("FAIL: leaf %d of the %s proof is not the leaf of (%s, %s)", i, class, v[0], v[1])
			}
		}
		if !merkle.VerifyMultiProof(mp.Root, merkle.MultiProof{Leaves: mp.Leaves, Proof: mp.Proof, ProofFlags: mp.ProofFlags}) {
			return fmt.Errorf("FAIL: the %s multiproof does not lead to root %s", class, mp.Root)
		}
		fmt.Fprintf(stdout, "OK: %d %s listing(s) proven against root %s\n", len(mp.Values), class, mp.Root)
	}
	return nil
}

// verifySnapshots fetches each data snapshot and checks its digest.
func verifySnapshots(doc *verifyDoc, offline bool, stdout io.Writer) error {
	names := make([]string, 0, len(doc.DataSnapshots))
	for name := range doc.DataSnapshots {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		snap := doc.DataSnapshots[name]
		if offline || snap.StorageURL == "" {
			fmt.Fprintf(stdout, "skipped: snapshot of %s (sha256 %s) not fetched\n", name, snap.SHA256)
			continue
		}
		if u, err := url.Parse(snap.StorageURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") {
			fmt.Fprintf(stdout, "skipped: snapshot of %s (sha256 %s): only http(s) URLs are fetched, not %q\n", name, snap.SHA256, snap.StorageURL)
			continue
		}
		rc, err := fetchURL(snap.StorageURL)
		if err != nil {
			return fmt.Errorf("FAIL: snapshot of %s: %w", name, err)
		}
		h := sha256.New()
		_, err = io.Copy(h, rc)
		rc.Close()
		if err != nil {
			return fmt.Errorf("FAIL: snapshot of %s: %w", name, err)
		}
		if got := hex.EncodeToString(h.Sum(nil)); got != snap.SHA256 {
			return fmt.Errorf("FAIL: the snapshot of %s at %s has sha256 %s, the document names %s", name, snap.StorageURL, got, snap.SHA256)
		}
		fmt.Fprintf(stdout, "OK: snapshot of %s matches sha256 %s\n", name, snap.SHA256)
	}
	return nil
}

// signatureOptions is how verify-proof finds the keys a screening proof's
// signature is checked with.
type signatureOptions struct {
	keysURL, key  string
	allowUnsigned bool
}

// verifySignature checks a screening proof's signature (compliance.
// VerifySignature) with the key given, or the keys published at the keys
// URL: given, or GET /v1/compliance/signing-keys at the origin of the
// document's proofUrl or of the URL it was read from (src). A document
// without a signature fails unless allowUnsigned.
func verifySignature(in []byte, src string, o signatureOptions, stdout io.Writer) error {
	var doc compliance.ProofDoc
	if err := json.Unmarshal(in, &doc); err != nil {
		return fmt.Errorf("FAIL: the document's header: %w", err)
	}
	if doc.Signature == nil {
		if o.allowUnsigned {
			fmt.Fprintln(stdout, "UNSIGNED: the document carries no signature (--allow-unsigned): its results are not bound to the issuer")
			return nil
		}
		return errors.New("FAIL: the document carries no signature, so anyone could have rewritten its results (documents stored before they were signed: --allow-unsigned)")
	}
	var keys []compliance.SigningKey
	if o.key != "" {
		pub, err := hex.DecodeString(strings.TrimPrefix(o.key, "0x"))
		if err != nil || len(pub) != 32 {
			return errors.New("--key is not a 64-hex-digit Ed25519 public key")
		}
		keys = []compliance.SigningKey{{KeyID: compliance.KeyID(pub), Alg: compliance.SignatureAlg, PublicKey: hex.EncodeToString(pub)}}
	} else {
		u := o.keysURL
		if u == "" {
			u = keysURLOf(doc.ProofURL, src)
		}
		if u == "" {
			return errors.New("FAIL: cannot check the signature: the document names no proofUrl; give --keys-url (the issuer's /v1/compliance/signing-keys) or --key")
		}
		var err error
		if keys, err = fetchSigningKeys(u); err != nil {
			return fmt.Errorf("FAIL: the signing keys: %w", err)
		}
	}
	k, err := compliance.VerifySignature(&doc, keys)
	if err != nil {
		return fmt.Errorf("FAIL: %s", sentence(err))
	}
	state := "a retired key"
	if k.Current {
		state = "the current key"
	}
	fmt.Fprintf(stdout, "OK: signed by %s (%s, %s)\n", k.KeyID, state, k.PublicKey)
	return nil
}

// keysURLOf is the signing keys' URL at the origin of the document's
// proofUrl, else of the http(s) URL it was read from; "" without either.
func keysURLOf(proofURL, src string) string {
	for _, raw := range []string{proofURL, src} {
		u, err := url.Parse(raw)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			continue
		}
		return u.Scheme + "://" + u.Host + "/v1/compliance/signing-keys"
	}
	return ""
}

// fetchSigningKeys reads GET /v1/compliance/signing-keys.
func fetchSigningKeys(u string) ([]compliance.SigningKey, error) {
	rc, err := fetchURL(u)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	var out struct {
		Keys []compliance.SigningKey `json:"keys"`
	}
	if err := json.NewDecoder(io.LimitReader(rc, 1<<20)).Decode(&out); err != nil {
		return nil, fmt.Errorf("%s: %w", u, err)
	}
	return out.Keys, nil
}

// rootsClaim is what a document says the contract recorded for its list
// version; an empty root is not checked.
type rootsClaim struct {
	version                                     uint64
	sanctions, community, exclusion, cExclusion string
}

// screeningClaim is the roots a screening proof names.
func screeningClaim(in []byte) (rootsClaim, error) {
	var doc compliance.ProofDoc
	if err := json.Unmarshal(in, &doc); err != nil {
		return rootsClaim{}, fmt.Errorf("FAIL: the document's header: %w", err)
	}
	return rootsClaim{doc.ListVersion, cmp.Or(doc.SanctionsRoot, doc.MerkleRoot), doc.CommunityRoot, doc.ExclusionRoot, doc.CommunityExclusionRoot}, nil
}

// proofClaim is the roots a Merkle proof (GET merkle-proof) names: its
// root is the tree of its class's (sanctions unless community).
func proofClaim(in []byte) (rootsClaim, error) {
	var doc struct {
		ListVersion            uint64  `json:"listVersion"`
		Class                  *string `json:"class"`
		Root                   string  `json:"root"`
		ExclusionRoot          string  `json:"exclusionRoot"`
		CommunityExclusionRoot string  `json:"communityExclusionRoot"`
	}
	if err := json.Unmarshal(in, &doc); err != nil {
		return rootsClaim{}, fmt.Errorf("FAIL: the document: %w", err)
	}
	c := rootsClaim{version: doc.ListVersion, sanctions: doc.Root, exclusion: doc.ExclusionRoot, cExclusion: doc.CommunityExclusionRoot}
	if doc.Class != nil && *doc.Class == screening.ClassCommunity {
		c.sanctions, c.community = "", doc.Root
	}
	return c, nil
}

// verifyAnchored checks that the verifier contract at addr recorded, for
// the document's list version, the roots the document names: so that the
// proofs a holder checks offline are the ones a contract accepts, and a
// root the document made up (a lone leaf as its own root) fails.
func verifyAnchored(claim rootsClaim, rpcURL string, addr common.Address, from uint64, stdout io.Writer) error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	client, err := evm.Dial(ctx, rpcURL)
	if err != nil {
		return fmt.Errorf("--evm-rpc-url: %w", err)
	}
	defer client.Close()
	recorded, err := evm.RootsOf(ctx, client, addr, claim.version, from)
	if err != nil {
		return fmt.Errorf("FAIL: %w", err)
	}
	if len(recorded) == 0 {
		return fmt.Errorf("FAIL: list version %d was never anchored at %s (no RootsUpdated event of it since block %d)", claim.version, addr.Hex(), from)
	}
	same := func(want string, got common.Hash) bool { return want == "" || strings.EqualFold(want, got.Hex()) }
	for _, r := range recorded {
		if same(claim.sanctions, r.Sanctions) && same(claim.community, r.Community) &&
			same(claim.exclusion, r.Exclusion) && same(claim.cExclusion, r.CommunityExclusion) {
			fmt.Fprintf(stdout, "OK: the roots of list version %d were anchored at %s in block %d (transaction %s)\n", claim.version, addr.Hex(), r.Block, r.TxHash.Hex())
			return nil
		}
	}
	return fmt.Errorf("FAIL: the contract at %s recorded other roots for list version %d (block %d) than the document names", addr.Hex(), claim.version, recorded[len(recorded)-1].Block)
}
