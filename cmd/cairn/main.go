// Command cairn runs the cairn service and its operator tools.
//
//	cairn serve [flags]          run the HTTP service
//	cairn token --developer-id   print a developer JWT
//	cairn ingest --source ...    ingest the sanctions sources offline
//	cairn ingest --export-snapshot ingest/snapshot --from SDN_ADVANCED.XML
//	                             refresh the bundled OFAC snapshot
//	cairn verify-proof FILE|-|URL  check a proof, its Merkle proofs and its snapshots
//	cairn contract deploy        deploy the verifier contract
//	cairn mcp [--mcp-listen A]   serve the MCP tools (stdio, or streamable HTTP)
//	cairn version                the module version, commit and Go version
//
// It is the only package that knows every implementation: it reads flags and
// environment into a Config, validates it once (Config.Validate, before any
// file, connection or listener is opened), opens the stores, derives keys,
// builds the domain services over the stores and wires them into the HTTP
// front end (which imports no storage package): Main.Open, in steps.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/cairn-dev/cairn"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(Run(ctx, os.Args[1:], os.Stdout, os.Stderr, os.Getenv))
}

const usage = `cairn: persistent agent memory, media storage and address screening.

Usage:
  cairn serve [flags]                       run the service (cairn serve -h lists the flags)
  cairn token --developer-id ID [--ttl 24h] print a developer JWT signed with the JWT secret
  cairn ingest --data-dir D --source N=P... ingest the sanctions sources into D's store now (server stopped)
  cairn ingest --export-snapshot OUT --from SDN_ADVANCED.XML[.bz2]|URL
                                            write the bundled OFAC snapshot (OUT: ingest/snapshot)
  cairn verify-proof [--offline] [--keys-url U | --key HEX] [--allow-unsigned] [--evm-rpc-url U --evm-contract A] FILE|-|URL
                                            check a Merkle proof, or a screening proof: its signature, Merkle proofs and snapshots,
                                            and with --evm-rpc-url that its roots were anchored
  cairn proof-key rotate|show [--data-dir D] [--proof-key-file F]
                                            retire the key proof documents are signed with and make a new one, or list the keys
  cairn contract deploy --evm-rpc-url URL --evm-key-file F [--evm-chain-id N]
                                            deploy the verifier contract and print its address
  cairn mcp [--server-url U] [--mcp-listen A]
                                            serve cairn as MCP tools over stdio (or streamable HTTP on A),
                                            calling the server at U with the API key in CAIRN_API_KEY
  cairn version (or --version)              print the module version, the commit it was built from and the Go version

Every flag --some-name may also be set as the environment variable CAIRN_SOME_NAME.
`

// Run runs the command line args and returns the exit status.
func Run(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var err error
	switch args[0] {
	case "serve":
		err = runServe(ctx, args[1:], stdout, stderr, getenv)
	case "token":
		err = runToken(args[1:], stdout, stderr, getenv)
	case "ingest":
		err = runIngest(ctx, args[1:], stdout, stderr, getenv)
	case "contract":
		err = runContract(ctx, args[1:], stdout, stderr, getenv)
	case "mcp":
		err = runMCP(ctx, args[1:], stdout, stderr, getenv)
	case "verify-proof":
		err = runVerifyProof(args[1:], os.Stdin, stdout, stderr)
	case "proof-key":
		err = runProofKey(args[1:], stdout, stderr, getenv)
	case "version", "-version", "--version":
		bi, _ := debug.ReadBuildInfo()
		fmt.Fprint(stdout, versionText(bi))
		return 0
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "cairn: unknown command %q\n\n%s", args[0], usage)
		return 2
	}
	if err == errUsage {
		return 2
	} else if err != nil {
		fmt.Fprintf(stderr, "cairn %s: %s\n", args[0], sentence(err))
		return 1
	}
	return 0
}

// sentence is err's text for a person: a *cairn.Error in its chain reads
// as its message, not as "cairn error: code=... message=...".
func sentence(err error) string {
	var ce *cairn.Error
	if !errors.As(err, &ce) {
		return err.Error()
	}
	return strings.Replace(err.Error(), ce.Error(), ce.Message, 1)
}

// versionText is what `cairn version` prints of bi (nil: no build
// information): the module's version, the commit it was built from (with
// its time, and "modified" for a dirty tree) and the Go version and
// platform.
func versionText(bi *debug.BuildInfo) string {
	version, commit, at, modified := "(devel)", "unknown", "", ""
	if bi != nil {
		if bi.Main.Version != "" {
			version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				commit = s.Value
			case "vcs.time":
				at = " " + s.Value
			case "vcs.modified":
				if s.Value == "true" {
					modified = " (modified)"
				}
			}
		}
	}
	return fmt.Sprintf("cairn %s\ncommit %s%s%s\n%s %s/%s\n", version, commit, modified, at, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}
