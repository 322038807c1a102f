package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/account"
)

// runToken prints a developer JWT. The secret is --jwt-secret, or the one
// the server derives from --data-dir's service key.
func runToken(args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	var (
		devID   string
		ttl     = 24 * time.Hour
		secret  string
		dataDir = DefaultConfig().DataDir
	)
	fs := flag.NewFlagSet("cairn token", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&devID, "developer-id", "", "developer id (the token's sub)")
	fs.DurationVar(&ttl, "ttl", ttl, "how long the token is valid")
	fs.StringVar(&secret, "jwt-secret", "", "HS256 secret (empty: derived from --data-dir's service key, as the server does)")
	fs.StringVar(&dataDir, "data-dir", dataDir, "data dir of the server whose key signs the token")
	if err := parseWithEnv(fs, args, getenv); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		fmt.Fprintln(stderr, err)
		return errUsage
	}
	if devID == "" {
		fmt.Fprintln(stderr, "--developer-id is required")
		return errUsage
	}
	key := []byte(secret)
	if secret == "" {
		sk, err := loadOrCreateServiceKey(dataDir)
		if err != nil {
			return fmt.Errorf("service key: %w", err)
		}
		key = jwtSecret("", sk)
	}
	tok, err := (&account.Tokens{Secret: key, Clock: cairn.SystemClock{}}).Issue(devID, ttl)
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, tok)
	return nil
}
