package compliance

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/url"
	"slices"
	"strings"

	"github.com/cairn-dev/cairn/merkle"
	"github.com/cairn-dev/cairn/screening"
	"github.com/cairn-dev/cairn/wire"
)

// The checks that need the outside world (VerifyOptions): the data
// snapshots, the signing keys, the roots recorded on chain. Their messages
// name the options of cairn verify-proof that change their verdict.

// snapshots fetches each data snapshot and checks its digest.
func (v *verifier) snapshots() bool {
	for _, name := range slices.Sorted(maps.Keys(v.doc.DataSnapshots)) {
		snap := v.doc.DataSnapshots[name]
		if v.opts.Offline || v.opts.Fetch == nil || snap.StorageURL == "" {
			v.add("snapshot", "skipped", "snapshot of %s (sha256 %s) not fetched", name, snap.SHA256)
			continue
		}
		if u, err := url.Parse(snap.StorageURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") {
			v.add("snapshot", "skipped", "snapshot of %s (sha256 %s): only http(s) URLs are fetched, not %q", name, snap.SHA256, snap.StorageURL)
			continue
		}
		rc, err := v.opts.Fetch(v.ctx, snap.StorageURL)
		if err != nil {
			return v.fail("snapshot", "snapshot of %s: %s", name, message(err))
		}
		h := sha256.New()
		_, err = io.Copy(h, rc)
		rc.Close()
		if err != nil {
			return v.fail("snapshot", "snapshot of %s: %s", name, message(err))
		}
		if got := hex.EncodeToString(h.Sum(nil)); got != snap.SHA256 {
			return v.fail("snapshot", "the snapshot of %s at %s has sha256 %s, the document names %s", name, snap.StorageURL, got, snap.SHA256)
		}
		v.ok("snapshot", "snapshot of %s matches sha256 %s", name, snap.SHA256)
	}
	return true
}

// signature checks a screening proof's signature (VerifySignature) with
// opts.Keys, or the keys published at opts.KeysURL or at the origin of
// the document's proofUrl or of opts.Source. A document without a
// signature fails unless opts.AllowUnsigned.
func (v *verifier) signature() bool {
	doc := &v.doc.ProofDoc
	if doc.Signature == nil {
		if v.opts.AllowUnsigned {
			v.add("signature", "UNSIGNED", "the document carries no signature (--allow-unsigned): its results are not bound to the issuer")
			return true
		}
		return v.fail("signature", "the document carries no signature, so anyone could have rewritten its results (documents stored before they were signed: --allow-unsigned)")
	}
	keys := v.opts.Keys
	if keys == nil {
		u := cmp.Or(v.opts.KeysURL, keysURLOf(doc.ProofURL, v.opts.Source))
		if u == "" {
			return v.fail("signature", "cannot check the signature: the document names no proofUrl; give --keys-url (the issuer's /v1/compliance/signing-keys) or --key")
		}
		var err error
		if keys, err = v.signingKeys(u); err != nil {
			return v.fail("signature", "the signing keys: %s", message(err))
		}
	}
	k, err := VerifySignature(doc, keys)
	if err != nil {
		return v.fail("signature", "%s", message(err))
	}
	state := "a retired key"
	if k.Current {
		state = "the current key"
	}
	v.ok("signature", "signed by %s (%s, %s)", k.KeyID, state, k.PublicKey)
	return true
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

// signingKeys reads the keys published at u (GET
// /v1/compliance/signing-keys).
func (v *verifier) signingKeys(u string) ([]SigningKey, error) {
	if v.opts.Fetch == nil {
		return nil, errors.New(u + ": not fetched (no Fetch)")
	}
	rc, err := v.opts.Fetch(v.ctx, u)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	var out wire.SigningKeys
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
func (v *verifier) screeningClaim() rootsClaim {
	d := &v.doc
	return rootsClaim{d.ListVersion, cmp.Or(d.SanctionsRoot, d.MerkleRoot), d.CommunityRoot, d.ExclusionRoot, d.CommunityExclusionRoot}
}

// proofClaim is the roots a Merkle proof names: its root is the tree of
// its class's (sanctions unless community).
func (v *verifier) proofClaim() rootsClaim {
	d := &v.doc
	c := rootsClaim{version: d.ListVersion, exclusion: d.ExclusionRoot, cExclusion: d.CommunityExclusionRoot}
	if d.Root != nil {
		c.sanctions = d.Root.String()
	}
	if d.Class != nil && *d.Class == screening.ClassCommunity {
		c.sanctions, c.community = "", c.sanctions
	}
	return c
}

// anchored checks, with opts.Anchors, that the verifier contract
// recorded, for the document's list version, the roots the document
// names: so that the proofs a holder checks offline are the ones a
// contract accepts, and a root the document made up (a lone leaf as its
// own root) fails.
func (v *verifier) anchored(claim rootsClaim) func() bool {
	return func() bool {
		a := v.opts.Anchors
		if a == nil {
			return true
		}
		recorded, err := a.RootsOf(v.ctx, claim.version)
		if err != nil {
			return v.fail("anchored", "%s", message(err))
		}
		if len(recorded) == 0 {
			return v.fail("anchored", "list version %d was never anchored at %s (no RootsUpdated event of it since block %d)", claim.version, a.Contract, a.FromBlock)
		}
		same := func(want string, got merkle.Hash) bool { return want == "" || strings.EqualFold(want, got.String()) }
		for _, r := range recorded {
			if same(claim.sanctions, r.Sanctions) && same(claim.community, r.Community) &&
				same(claim.exclusion, r.Exclusion) && same(claim.cExclusion, r.CommunityExclusion) {
				v.ok("anchored", "the roots of list version %d were anchored at %s in block %d (transaction %s)", claim.version, a.Contract, r.Block, r.TxHash)
				return true
			}
		}
		return v.fail("anchored", "the contract at %s recorded other roots for list version %d (block %d) than the document names", a.Contract, claim.version, recorded[len(recorded)-1].Block)
	}
}
