package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	iofs "io/fs"
	"path/filepath"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/account"
)

// runToken prints a developer JWT. The secret is --jwt-secret or
// --jwt-secret-file (held to the server's rules: at least 32 bytes, a
// private file), or the one the server derives from --data-dir's service
// key.
func runToken(args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	var (
		devID   string
		ttl     = 24 * time.Hour
		sec     Config // its JWTSecret and JWTSecretFile
		dataDir = DefaultConfig().DataDir
	)
	fs := flag.NewFlagSet("cairn token", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&devID, "developer-id", "", "developer id (the token's sub)")
	fs.DurationVar(&ttl, "ttl", ttl, "how long the token is valid")
	fs.StringVar(&sec.JWTSecret, "jwt-secret", "", "HS256 secret, at least 32 bytes (empty: derived from --data-dir's service key, as the server does)")
	fs.StringVar(&sec.JWTSecretFile, "jwt-secret-file", "", "file (mode 0600) holding the HS256 secret")
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
	if err := resolveSecrets(&sec); err != nil {
		fmt.Fprintln(stderr, err)
		return errUsage
	}
	key := []byte(sec.JWTSecret)
	if sec.JWTSecret == "" {
		// The server's key is read, never created: a new key would sign
		// tokens no server accepts.
		sk, err := readServiceKey(filepath.Join(dataDir, serviceKeyFile))
		if errors.Is(err, iofs.ErrNotExist) {
			fmt.Fprintf(stderr, "%s has no %s: give --data-dir of the server (the directory it was started with), "+
				"or the server's --jwt-secret-file\n", dataDir, serviceKeyFile)
			return errUsage
		} else if err != nil {
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
