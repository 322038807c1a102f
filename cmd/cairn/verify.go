package main

import (
	"context"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/chain/evm"
	"github.com/cairn-dev/cairn/client/verify"
	"github.com/cairn-dev/cairn/compliance"
	"github.com/cairn-dev/cairn/merkle"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/ethclient"
)

// runVerifyProof checks a document the service returned (a Merkle proof
// or a screening proof), read from a file, stdin or a URL (a screening
// proof's proofUrl needs no account), with compliance.Verify: it fetches
// the data snapshots (unless --offline) and the signing keys over http(s),
// and reads the anchored roots from the chain with --evm-rpc-url.
//
// It prints each check and exits 0 when everything holds, 1 when not.
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
	opts := compliance.VerifyOptions{Source: fs.Arg(0), Fetch: verify.FetchURL, Offline: *offline, KeysURL: *keysURL, AllowUnsigned: *unsigned}
	if *keyHex != "" {
		pub, err := hex.DecodeString(strings.TrimPrefix(*keyHex, "0x"))
		if err != nil || len(pub) != 32 {
			return errors.New("--key is not a 64-hex-digit Ed25519 public key")
		}
		opts.Keys = []compliance.SigningKey{{KeyID: compliance.KeyID(pub), Alg: compliance.SignatureAlg, PublicKey: hex.EncodeToString(pub)}}
	}
	if *evmURL != "" {
		client, err := evm.Dial(context.Background(), *evmURL)
		if err != nil {
			return fmt.Errorf("--evm-rpc-url: %w", err)
		}
		defer client.Close()
		opts.Anchors = anchorsAt(client, common.HexToAddress(*evmContract), *evmFrom)
	}
	report, err := compliance.Verify(context.Background(), in, opts)
	for _, c := range report.Checks {
		if !c.OK {
			return errors.New(c.String())
		}
		fmt.Fprintln(stdout, c.String())
	}
	return err
}

// readSource reads a file, stdin ("-") or an http(s) URL.
func readSource(src string, stdin io.Reader) ([]byte, error) {
	switch {
	case src == "-":
		return io.ReadAll(io.LimitReader(stdin, 64<<20))
	case strings.HasPrefix(src, "http://") || strings.HasPrefix(src, "https://"):
		rc, err := verify.FetchURL(context.Background(), src)
		if err != nil {
			return nil, err
		}
		defer rc.Close()
		return io.ReadAll(io.LimitReader(rc, 64<<20))
	default:
		return os.ReadFile(src)
	}
}

// anchorsAt reads the roots the verifier contract at addr recorded
// (evm.RootsOf) from block from on.
func anchorsAt(client *ethclient.Client, addr common.Address, from uint64) *compliance.Anchors {
	return &compliance.Anchors{Contract: addr.Hex(), FromBlock: from, RootsOf: func(ctx context.Context, version uint64) ([]compliance.AnchoredRoots, error) {
		ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
		defer cancel()
		recorded, err := evm.RootsOf(ctx, client, addr, version, from)
		if err != nil {
			return nil, err
		}
		out := make([]compliance.AnchoredRoots, len(recorded))
		for i, r := range recorded {
			out[i] = compliance.AnchoredRoots{Sanctions: merkle.Hash(r.Sanctions), Community: merkle.Hash(r.Community), Exclusion: merkle.Hash(r.Exclusion),
				CommunityExclusion: merkle.Hash(r.CommunityExclusion), Block: r.Block, TxHash: r.TxHash.Hex()}
		}
		return out, nil
	}}
}
