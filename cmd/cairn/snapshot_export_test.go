package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/ingest"
)

// TestExportSnapshotCommand refreshes a snapshot directory from a real
// SDN_ADVANCED.XML excerpt as README.md shows: the file is named by the
// date of issue, replaces the older snapshot, reads back with the
// excerpt's records, and bad usage exits 2.
func TestExportSnapshotCommand(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, ingest.SnapshotFileName("2025-01-01"))
	if err := os.WriteFile(old, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) (int, string) {
		var out, errOut strings.Builder
		code := Run(t.Context(), append([]string{"ingest"}, args...), &out, &errOut, func(string) string { return "" })
		return code, out.String() + errOut.String()
	}
	code, out := run("--export-snapshot", dir, "--from", "testdata/ofac_xml/sdn_advanced_excerpt.xml")
	if code != 0 {
		t.Fatalf("export: %d %s", code, out)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	want := filepath.Join(dir, ingest.SnapshotFileName("2025-11-19"))
	if len(files) != 1 || files[0] != want {
		t.Fatalf("snapshot dir holds %v, want only %s", files, want)
	}
	f, err := os.Open(want)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	entities := map[string]bool{}
	n := 0
	h, err := ingest.ReadSnapshot(f, func(r ingest.Record) error { n++; entities[r.EntityID] = true; return nil })
	// The excerpt: 479 digital-currency features of 42 parties, sha256 as in PROVENANCE.md.
	if err != nil || h.Date != "2025-11-19" || n != h.Records || n != 479 || len(entities) != 42 || h.SHA256 != "142e94a0635c989c709f7a0540d5a1e96883bf3436aa5226beb712f53db320a7" || !strings.Contains(out, h.SHA256) {
		t.Fatalf("read back: %+v, %d records of %d entities, %v; output %s", h, n, len(entities), err, out)
	}
	for _, args := range [][]string{
		{"--export-snapshot", dir},
		{"--from", "testdata/ofac_xml/sdn_advanced_excerpt.xml"},
		{"--export-snapshot", dir, "--from", "x.xml", "--source", "list:ETH=x"},
	} {
		if code, out := run(args...); code != 2 {
			t.Errorf("%v: exit %d, want 2 (%s)", args, code, out)
		}
	}
	if code, _ := run("--export-snapshot", dir, "--from", "testdata/sanctioned_addresses_ETH.txt"); code != 1 {
		t.Errorf("a file that is no SDN_ADVANCED.XML: exit %d, want 1", code)
	}
	if _, err := os.Stat(want); err != nil {
		t.Fatalf("a failed export removed the snapshot: %v", err)
	}
}
