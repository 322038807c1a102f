package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// anchored is args after the flags of anchoring (which are valid).
func anchored(args ...string) []string {
	return append([]string{"--evm-rpc-url", "http://127.0.0.1:1", "--evm-contract", "0x00000000000000000000000000000000000000aa",
		"--evm-key-file", "evm.key"}, args...)
}

// TestServeValidate: every invalid value is refused right after parsing,
// with exit status 2 and a message naming its flag, before anything is
// opened: the data dir is never created.
func TestServeValidate(t *testing.T) {
	for want, args := range map[string][]string{ // what stderr says -> the flags
		"--ingest-max-drop 0: want a share in (0, 1]": {"--ingest-max-drop", "0"},
		"--ingest-max-drop 5: want a share in (0, 1]": {"--ingest-max-drop", "5"},
		"--ingest-schedule":                           {"--ingest-schedule", "every so often"},
		"--source: source \"nope\"":                   {"--source", "nope=x"},
		`invalid log level "loud"`:                    {"--log-level", "loud"},
		`invalid log format "xml"`:                    {"--log-format", "xml"},
		"--store must be pebble or a postgres:// URL": {"--store", "mysql://x"},
		"--store postgres needs --postgres-url":       {"--store", "postgres"},
		"--leader-interval, --list-poll-interval and --memory-catch-up-interval must be positive": {"--store", "postgres://x/y", "--leader-interval", "0s"},
		`--blob "tape": want fs or s3`:                  {"--blob", "tape"},
		"--blob s3 needs --s3-endpoint and --s3-bucket": {"--blob", "s3", "--s3-bucket", "b"},
		"--s3-endpoint": {"--blob", "s3", "--s3-bucket", "b", "--s3-endpoint", "ftp://127.0.0.1:9000"},
		"--credits-per-apt 0: want a positive rate":                  {"--credits-per-apt", "0"},
		`--aptos-node-url is required for --aptos-network "moonnet"`: {"--aptos-network", "moonnet"},
		"--embedder-url needs --embedder-model":                      {"--embedder-url", "http://127.0.0.1:1"},
		"--vector-hnsw-threshold must be 0 or more":                  {"--vector-hnsw-threshold", "-1"},
		"needs --evm-contract and --evm-key-file":                    {"--evm-rpc-url", "http://127.0.0.1:1"},
		"need --evm-rpc-url":                                         {"--evm-contract", "0x00"},
		"--evm-oracle-from-block 5 needs anchoring":                  {"--evm-oracle-from-block", "5"},
		"--evm-oracle-from-block 7 needs anchoring (--evm-rpc-url)": {"--evm-rpc-url", "http://127.0.0.1:1", "--evm-contract",
			"0x00000000000000000000000000000000000000aa", "--evm-key-file", "evm.key", "--evm-oracle=false", "--evm-oracle-from-block", "7"},
		"--public-evm-rpc-url needs anchoring (--evm-rpc-url)":                               {"--public-evm-rpc-url", "https://rpc.example/"},
		`--public-evm-rpc-url "ftp://rpc.example": want an http(s) URL`:                      anchored("--public-evm-rpc-url", "ftp://rpc.example"),
		`--public-evm-rpc-url "https://rpc.example/?key=s": no user info, query or fragment`: anchored("--public-evm-rpc-url", "https://rpc.example/?key=s"),
		`--public-evm-rpc-url "https://u:p@rpc.example/": no user info`:                      anchored("--public-evm-rpc-url", "https://u:p@rpc.example/"),
		`--public-evm-rpc-url "https://rpc.example/a;b": write it plainly`:                   anchored("--public-evm-rpc-url", "https://rpc.example/a;b"),
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "data")
			var out, errOut bytes.Buffer
			args := append([]string{"serve", "--data-dir", dir, "--listen", "127.0.0.1:0", "--default-sources=false"}, args...)
			code := Run(context.Background(), args, &out, &errOut, func(string) string { return "" })
			if code != 2 || !strings.Contains(errOut.String(), want) || !strings.HasPrefix(errOut.String(), "cairn serve: ") {
				t.Fatalf("exit %d, stderr %q; want 2 and %q", code, errOut.String(), want)
			}
			if strings.Contains(errOut.String(), "code=") {
				t.Fatalf("not a sentence: %q", errOut.String())
			}
			if _, err := os.Stat(dir); !os.IsNotExist(err) {
				t.Fatalf("the data dir was created before the configuration was valid: %v", err)
			}
		})
	}
}

// TestValidateResolvesStore: --store postgres takes --postgres-url's URL,
// in the Config itself, so that Open and everything after it see one.
func TestValidateResolvesStore(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Store, cfg.PostgresURL = "postgres", "postgres://127.0.0.1:1/db"
	if err := cfg.Validate(); err != nil || cfg.Store != cfg.PostgresURL {
		t.Fatalf("Validate = %v, --store %q", err, cfg.Store)
	}
}
