package main

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestIngestCommand runs `cairn ingest` offline into a data dir, then
// starts the server on that dir without any source: it serves the version
// the command made.
func TestIngestCommand(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	run := func(args ...string) (int, string) {
		var out, errOut strings.Builder
		code := Run(t.Context(), append([]string{"ingest", "--data-dir", dir}, args...), &out, &errOut, func(string) string { return "" })
		return code, out.String() + errOut.String()
	}
	for _, tc := range []struct {
		name string
		args []string
		code int
	}{
		{"ErrNoSource", nil, 2},
		{"ErrBadName", []string{"--source", "nope=x"}, 1},
		{"ErrTwice", []string{"--source", "list:ETH=a", "--source", "list:ETH=b"}, 1},
		{"ErrMaxDrop", []string{"--source", "list:ETH=a", "--ingest-max-drop", "0"}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if code, out := run(tc.args...); code != tc.code {
				t.Fatalf("exit %d, want %d: %s", code, tc.code, out)
			}
		})
	}
	code, out := run("--source", "list:ETH=testdata/sanctioned_addresses_ETH.txt", "--source", "list:XBT=testdata/sanctioned_addresses_XBT.txt")
	m := regexp.MustCompile(`list version 1: root (0x[0-9a-f]{64}), (\d+) addresses`).FindStringSubmatch(out)
	if code != 0 || m == nil || !regexp.MustCompile(`(?m)^list:ETH +\d+ entries`).MatchString(out) {
		t.Fatalf("ingest: exit %d\n%s", code, out)
	}
	code, out = run("--source", "list:ETH=testdata/missing.txt", "--source", "list:XBT=testdata/sanctioned_addresses_XBT.txt")
	if code != 1 || !strings.Contains(out, "previous list version 1 restored") || !strings.Contains(out, "list:ETH") ||
		!strings.Contains(out, "FAILED") || !strings.Contains(out, "list version 2: root "+m[1]) {
		t.Fatalf("ingest with a missing source: exit %d\n%s", code, out)
	}

	ts := startServer(t, testConfig(t, dir))
	a := ts.register(t, "")
	r := ts.do(t, "GET", "/v1/compliance/merkle-root", a.Key, nil).must(t, 200)
	if r.str("root") != m[1] || r.num("listVersion") != 2 || fmt.Sprint(r.num("leafCount")) != m[2] {
		t.Fatalf("served root %s, the command made %s", r.Body, m[1])
	}
	s := ts.do(t, "POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": []map[string]any{{"address": tornado, "chain": "base"}}}).must(t, 200)
	if s.JSON["results"].([]any)[0].(map[string]any)["status"] != "sanctioned" {
		t.Fatalf("screen after offline ingest: %s", s.Body)
	}
}

func TestIngestFlags(t *testing.T) {
	cfg := testConfig(t, t.TempDir())
	cfg.Sources = stringList{"list:ETH=testdata/sanctioned_addresses_ETH.txt"}
	cfg.IngestSchedule = "every so often"
	m := NewMain(cfg, nil, &syncBuffer{})
	if err := m.Open(t.Context()); err == nil || !strings.Contains(err.Error(), "--ingest-schedule") {
		t.Fatalf("bad schedule accepted: %v", err)
	}
	_ = m.Close()
	cfg.IngestSchedule = "@every 6h"
	cfg.Sources = stringList{"bogus=/x"}
	m = NewMain(cfg, nil, &syncBuffer{})
	if err := m.Open(t.Context()); err == nil {
		t.Fatal("bad source accepted")
	}
	_ = m.Close()
	var l stringList
	_ = l.Set("list:ETH=a.txt; gov_sdn=b.xml")
	if len(l) != 2 || l[1] != "gov_sdn=b.xml" {
		t.Fatalf("env list %v", l)
	}
}
