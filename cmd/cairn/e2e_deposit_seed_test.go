package main

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/chain/aptos"
	"github.com/cairn-dev/cairn/store/postgres/pgtest"
)

// openFails opens a server on cfg and returns the error of its start,
// failing the test when it starts.
func openFails(t *testing.T, cfg Config) error {
	t.Helper()
	m := NewMain(cfg, io.Discard, io.Discard)
	err := m.Open(context.Background())
	m.Close()
	if err == nil {
		t.Fatal("the start with another deposit seed succeeded")
	}
	return err
}

// TestE2EDepositSeedShared: the instances sharing a store derive their
// agents' deposit addresses from one seed. The first start records the
// seed's fingerprint in the store; a start with another seed is refused,
// naming what to do, and a seed generated for it is not written to its
// data dir; the same seed given by --deposit-mnemonic-file is taken, and
// both instances give an agent the same deposit address. On the embedded
// store, a restart with another --deposit-mnemonic is refused likewise.
func TestE2EDepositSeedShared(t *testing.T) {
	t.Run("Postgres", func(t *testing.T) {
		url := pgtest.URL(t)
		schema := pgtest.Schema(t, url)
		// Seeds generated for each data dir (the test servers are
		// otherwise given one fixed mnemonic).
		cfgA := testConfig(t, t.TempDir())
		cfgA.Store, cfgA.PostgresSchema, cfgA.DepositMnemonic = url, schema, ""
		a := startServer(t, cfgA)
		seedFile := filepath.Join(cfgA.DataDir, aptos.MnemonicFile)
		if _, err := os.Stat(seedFile); err != nil {
			t.Fatalf("the first instance kept no seed: %v", err)
		}

		cfgB := testConfig(t, t.TempDir())
		cfgB.Store, cfgB.PostgresSchema, cfgB.DepositMnemonic = url, schema, ""
		err := openFails(t, cfgB)
		if !strings.Contains(err.Error(), "a new one generated for this data dir") || !strings.Contains(err.Error(), "--deposit-mnemonic-file") {
			t.Fatalf("the refusal: %v", err)
		}
		if _, err := os.Stat(filepath.Join(cfgB.DataDir, aptos.MnemonicFile)); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("the refused start wrote a deposit mnemonic: %v", err)
		}

		cfgB.DepositMnemonicFile = seedFile
		b := startServer(t, cfgB)
		agent := a.register(t, "payer")
		got := b.do(t, "GET", "/v1/billing/agent/balance", agent.Key, nil).must(t, 200)
		if info := got.JSON["depositInfo"].(map[string]any); info["address"] != agent.Address {
			t.Fatalf("the other instance gives the agent deposit address %v, the first %s", info["address"], agent.Address)
		}
	})
	t.Run("Pebble", func(t *testing.T) {
		cfg := testConfig(t, t.TempDir())
		ts := startServer(t, cfg)
		ts.stop()
		other, err := aptos.GenerateMnemonic()
		if err != nil {
			t.Fatal(err)
		}
		changed := cfg
		changed.DepositMnemonic = other
		if err := openFails(t, changed); !strings.Contains(err.Error(), "the one given by --deposit-mnemonic") {
			t.Fatalf("the refusal: %v", err)
		}
		startServer(t, cfg) // its own seed again
	})
}
