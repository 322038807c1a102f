package main

import (
	"context"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/billing"
	"github.com/cairn-dev/cairn/store/postgres/pgtest"
)

// TestRecoveryClonedDataDir: two instances started from copies of one
// data dir (one service key) share a PostgreSQL ledger. A restart of one
// after a crash does not refund the other's write in flight (a charge
// without its effect yet); the crash and restart of the instance that
// took the charge still refunds it.
func TestRecoveryClonedDataDir(t *testing.T) {
	url := pgtest.URL(t)
	cfgA := testConfig(t, t.TempDir())
	cfgA.Store, cfgA.PostgresSchema = url, pgtest.Schema(t, url)
	a := startServer(t, cfgA)
	agent := a.register(t, "clone")
	a.stop()
	cfgB := cfgA
	cfgB.DataDir = t.TempDir()
	copyDir(t, cfgA.DataDir, cfgB.DataDir)

	a = startServer(t, cfgA)
	b := startServer(t, cfgB)
	if _, err := a.m.server.Ledger.Charge(context.Background(), agent.DeveloperID, agent.ID, billing.OpMemoryWrite, 5, "in-flight-on-a"); err != nil {
		t.Fatal(err)
	}
	a.wantBalance(t, agent, 95)

	// B crashes and restarts while A's write is in flight.
	b.stop()
	forgetCheckpoint(t, cfgB.DataDir)
	b = startServer(t, cfgB)
	if strings.Contains(b.logs.String(), "refunded the charge of an interrupted write") {
		t.Fatalf("the copy refunded the other instance's charge in flight:\n%s", b.logs.String())
	}
	b.wantBalance(t, agent, 95)

	// A crashes with its write unfinished: its restart refunds it.
	a.stop()
	forgetCheckpoint(t, cfgA.DataDir)
	a = startServer(t, cfgA)
	if n := strings.Count(a.logs.String(), "refunded the charge of an interrupted write"); n != 1 {
		t.Fatalf("%d refunds logged by the instance that took the charge, want 1:\n%s", n, a.logs.String())
	}
	a.wantBalance(t, agent, 100)
}

// copyDir copies a stopped instance's data dir, modes kept (as cp -a).
func copyDir(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, path)
		dst := filepath.Join(to, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		if d.IsDir() {
			return os.MkdirAll(dst, info.Mode().Perm())
		}
		src, err := os.Open(path)
		if err != nil {
			return err
		}
		defer src.Close()
		out, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, info.Mode().Perm())
		if err != nil {
			return err
		}
		if _, err := io.Copy(out, src); err != nil {
			out.Close()
			return err
		}
		return out.Close()
	})
	if err != nil {
		t.Fatal(err)
	}
}
