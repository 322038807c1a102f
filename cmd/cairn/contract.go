package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/cairn-dev/cairn/chain/evm"
	"github.com/ethereum/go-ethereum/common"
)

const contractUsage = `Usage:
  cairn contract deploy --evm-rpc-url URL --evm-key-file FILE [--updater ADDR] [--evm-chain-id N] [--timeout 5m]

deploy sends the creation transaction of the verifier contract
(contracts/CairnVerifier.sol) from the key file's account, which becomes its
owner, waits until it is mined and prints the contract's address on stdout.
With --updater it then grants ADDR the updater role (setUpdater): give
cairn serve that account's key and keep the owner's key off the server.
`

// runContract runs the contract subcommands.
func runContract(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	if len(args) == 0 || args[0] != "deploy" {
		fmt.Fprint(stderr, contractUsage)
		return errUsage
	}
	var (
		rpcURL, keyFile string
		updater         string
		chainID         uint64
		timeout         = 5 * time.Minute
	)
	fs := flag.NewFlagSet("cairn contract deploy", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&rpcURL, "evm-rpc-url", "", "JSON-RPC endpoint of the EVM node (http(s):// or ws(s)://)")
	fs.StringVar(&keyFile, "evm-key-file", "", "file (mode 0600) holding the hex private key of the deploying account, the contract's owner")
	fs.StringVar(&updater, "updater", "", "0x address granted the updater role once deployed: the hot key cairn serve anchors with")
	fs.Uint64Var(&chainID, "evm-chain-id", 0, "chain id the node must serve (0: the node's, unchecked)")
	fs.DurationVar(&timeout, "timeout", timeout, "how long to wait for the creation transaction to be mined")
	if err := parseWithEnv(fs, args[1:], getenv); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		fmt.Fprintln(stderr, err)
		return errUsage
	}
	if rpcURL == "" || keyFile == "" {
		fmt.Fprintln(stderr, "--evm-rpc-url and --evm-key-file are required")
		return errUsage
	}
	if updater != "" && !common.IsHexAddress(updater) {
		fmt.Fprintf(stderr, "--updater %q is not a 0x address\n", updater)
		return errUsage
	}
	key, err := evm.LoadKeyFile(keyFile)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	client, err := evm.Dial(ctx, rpcURL)
	if err != nil {
		return fmt.Errorf("connect to the EVM node: %s", evm.Redact(err))
	}
	defer client.Close()
	id, err := evm.CheckChainID(ctx, client, chainID)
	if err != nil {
		return errors.New(evm.Redact(err))
	}
	fmt.Fprintf(stderr, "deploying the verifier contract on chain %s from %s...\n", id, evm.Address(key).Hex())
	addr, tx, err := evm.Deploy(ctx, client, key, id)
	if err != nil {
		return errors.New(evm.Redact(err))
	}
	block := ""
	if rcpt, err := client.TransactionReceipt(ctx, tx); err == nil {
		block = fmt.Sprintf(" in block %d (for --evm-oracle-from-block)", rcpt.BlockNumber)
	}
	fmt.Fprintf(stderr, "deployed by transaction %s%s; owner %s\n", tx.Hex(), block, evm.Address(key).Hex())
	if updater != "" {
		u := common.HexToAddress(updater)
		gtx, err := evm.GrantUpdater(ctx, client, key, id, addr, u)
		if err != nil {
			// The contract exists: print it, so that the grant can be
			// sent again by hand.
			fmt.Fprintln(stdout, addr.Hex())
			return fmt.Errorf("contract %s deployed, but granting the updater role to %s failed: %s", addr.Hex(), u.Hex(), evm.Redact(err))
		}
		fmt.Fprintf(stderr, "granted the updater role to %s by transaction %s\n", u.Hex(), gtx.Hex())
	}
	fmt.Fprintln(stdout, addr.Hex())
	return nil
}
