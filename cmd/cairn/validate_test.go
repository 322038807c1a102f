package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestServeValidate: every invalid value is refused right after parsing,
// with exit status 2 and a message naming its flag, before anything is
// opened: the data dir is never created.
func TestServeValidate(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--ingest-max-drop", "0"}, "--ingest-max-drop 0: want a share in (0, 1]"},
		{[]string{"--ingest-max-drop", "5"}, "--ingest-max-drop 5: want a share in (0, 1]"},
		{[]string{"--ingest-schedule", "every so often"}, "--ingest-schedule"},
		{[]string{"--source", "nope=x"}, "--source: source \"nope\""},
		{[]string{"--log-level", "loud"}, `invalid log level "loud"`},
		{[]string{"--log-format", "xml"}, `invalid log format "xml"`},
		{[]string{"--store", "mysql://x"}, "--store must be pebble or a postgres:// URL"},
		{[]string{"--store", "postgres"}, "--store postgres needs --postgres-url"},
		{[]string{"--store", "postgres://x/y", "--leader-interval", "0s"}, "--leader-interval, --list-poll-interval and --memory-catch-up-interval must be positive"},
		{[]string{"--blob", "tape"}, `--blob "tape": want fs or s3`},
		{[]string{"--blob", "s3", "--s3-bucket", "b"}, "--blob s3 needs --s3-endpoint and --s3-bucket"},
		{[]string{"--blob", "s3", "--s3-bucket", "b", "--s3-endpoint", "ftp://127.0.0.1:9000"}, "--s3-endpoint"},
		{[]string{"--credits-per-apt", "0"}, "--credits-per-apt 0: want a positive rate"},
		{[]string{"--aptos-network", "moonnet"}, `--aptos-node-url is required for --aptos-network "moonnet"`},
		{[]string{"--embedder-url", "http://127.0.0.1:1"}, "--embedder-url needs --embedder-model"},
		{[]string{"--vector-hnsw-threshold", "-1"}, "--vector-hnsw-threshold must be 0 or more"},
		{[]string{"--evm-rpc-url", "http://127.0.0.1:1"}, "needs --evm-contract and --evm-key-file"},
		{[]string{"--evm-contract", "0x00"}, "need --evm-rpc-url"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "data")
			var out, errOut bytes.Buffer
			args := append([]string{"serve", "--data-dir", dir, "--listen", "127.0.0.1:0", "--default-sources=false"}, tc.args...)
			code := Run(context.Background(), args, &out, &errOut, func(string) string { return "" })
			if code != 2 || !strings.Contains(errOut.String(), tc.want) || !strings.HasPrefix(errOut.String(), "cairn serve: ") {
				t.Fatalf("exit %d, stderr %q; want 2 and %q", code, errOut.String(), tc.want)
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
