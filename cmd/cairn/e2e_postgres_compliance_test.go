package main

import (
	"io"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
	"github.com/cairn-dev/cairn/store/pebble"
	"github.com/cairn-dev/cairn/store/postgres/pgtest"
)

// TestE2EPostgresSharedRecords runs two instances with --store postgres,
// each with its own data dir (embedded store and blobs), on one Postgres
// schema: media records, the free screening window, the screening count,
// the list versions and community reports are shared through Postgres. A
// third instance on a fresh data dir then restores the newest list version
// from Postgres alone.
func TestE2EPostgresSharedRecords(t *testing.T) {
	url := pgtest.URL(t)
	schema := pgtest.Schema(t, url)
	pgConfig := func(t *testing.T) Config {
		cfg := testConfig(t, t.TempDir())
		cfg.Store, cfg.PostgresSchema = url, schema
		return cfg
	}
	cfgA := pgConfig(t)
	a := startServer(t, cfgA)
	if a.m.pg == nil || a.m.core != store.Store(a.m.pg) {
		t.Fatal("the shared records are not in the Postgres store")
	}
	b := startServer(t, pgConfig(t))

	// The bundled snapshot, installed by the first instance as version 1,
	// is restored by the second from Postgres, with the same root.
	u := a.register(t, "")
	rootA := a.do(t, "GET", "/v1/compliance/merkle-root", u.Key, nil).must(t, 200)
	rootB := b.do(t, "GET", "/v1/compliance/merkle-root", u.Key, nil).must(t, 200)
	if rootA.num("listVersion") != 1 || rootB.num("listVersion") != 1 || rootA.str("root") != rootB.str("root") {
		t.Fatalf("roots: %s and %s", rootA.Body, rootB.Body)
	}
	if strings.Contains(b.logs.String(), "BUNDLED") {
		t.Fatal("the second instance installed the bundled snapshot again")
	}
	screen := func(t *testing.T, ts *testServer, key, addr string) map[string]any {
		t.Helper()
		r := ts.do(t, "POST", "/v1/compliance/screen", key, map[string]any{
			"addresses": []map[string]any{{"address": addr, "chain": "ethereum"}}, "includeCommunity": true}).must(t, 200)
		return r.JSON["results"].([]any)[0].(map[string]any)
	}
	if res := screen(t, b, u.Key, lazarusETH); res["status"] != "sanctioned" {
		t.Fatalf("a listed address on the second instance: %v", res)
	}

	t.Run("Media", func(t *testing.T) {
		up := a.upload(t, u.Key, part{name: "file", filename: "p.png", contentType: "image/png", body: pngBytes}).must(t, 201)
		id := up.str("id")
		if r := b.do(t, "GET", "/v1/media/"+id, u.Key, nil).must(t, 200); r.str("sha256") != up.str("sha256") || r.str("category") != cairn.MediaPhoto {
			t.Fatalf("metadata on the other instance: %s", r.Body)
		}
		other := b.register(t, "")
		b.do(t, "GET", "/v1/media/"+id, other.Key, nil).problem(t, 404, cairn.ENOTFOUND)
		list := b.do(t, "GET", "/v1/media?category=photo", u.Key, nil).must(t, 200).JSON["media"].([]any)
		if len(list) != 1 || list[0].(map[string]any)["id"] != id {
			t.Fatalf("listing on the other instance: %v", list)
		}
		log := b.do(t, "GET", "/v1/memory/audit?action=upload", u.Key, nil).must(t, 200).JSON["entries"].([]any)
		if len(log) != 1 || log[0].(map[string]any)["resource"] != id {
			t.Fatalf("upload audit on the other instance: %v", log)
		}
		b.do(t, "DELETE", "/v1/media/"+id, u.Key, nil).must(t, 200)
		a.do(t, "GET", "/v1/media/"+id, u.Key, nil).problem(t, 404, cairn.ENOTFOUND)
		a.do(t, "DELETE", "/v1/media/"+id, u.Key, nil).problem(t, 404, cairn.ENOTFOUND)
		if list := a.do(t, "GET", "/v1/media", u.Key, nil).must(t, 200).JSON["media"].([]any); len(list) != 0 {
			t.Fatalf("deleted media still listed: %v", list)
		}
	})

	t.Run("FreeTierAndCount", func(t *testing.T) {
		s := a.register(t, "")
		before := a.do(t, "GET", "/v1/compliance/stats", "", nil).must(t, 200).JSON["compliance"].(map[string]any)["totalScreenings"].(float64)
		r1 := a.do(t, "POST", "/v1/compliance/screen", s.Key, map[string]any{"addresses": addresses(6)}).must(t, 200)
		r2 := b.do(t, "POST", "/v1/compliance/screen", s.Key, map[string]any{"addresses": addresses(6)}).must(t, 200)
		if r1.Header.Get("X-RateLimit-Free-Remaining") != "4" || r2.Header.Get("X-RateLimit-Free-Remaining") != "0" ||
			r2.Header.Get("X-RateLimit-Billable") != "2" || r1.Header.Get("X-RateLimit-Free-Reset") != r2.Header.Get("X-RateLimit-Free-Reset") {
			t.Fatalf("one window over two instances: %v then %v", r1.Header, r2.Header)
		}
		after := b.do(t, "GET", "/v1/compliance/stats", "", nil).must(t, 200).JSON["compliance"].(map[string]any)["totalScreenings"].(float64)
		if after != before+2 {
			t.Fatalf("screening count %v, then %v after one request on each instance", before, after)
		}
		// Each instance serves the proof document of a screening the other
		// made (proofs are in the shared store), without an account.
		for _, c := range []struct {
			made   *response
			reader *testServer
		}{{r1, b}, {r2, a}} {
			proof := c.made.JSON["proof"].(map[string]any)
			id, hash := proof["screeningId"].(string), proof["resultsHash"].(string)
			doc := c.reader.do(t, "GET", "/v1/compliance/proofs/"+id, "", nil).must(t, 200)
			if doc.str("screeningId") != id || doc.str("resultsHash") != hash {
				t.Fatalf("proof served by the other instance: %s", doc.Body)
			}
		}
	})

	t.Run("ReportsModerationRestore", func(t *testing.T) {
		const suspect = "0x00000000000000000000000000000000005a4ed5"
		var ids []string
		for i, ts := range []*testServer{b, b, a} {
			r := ts.do(t, "POST", "/v1/compliance/report", ts.registerEstablished(t).Key, reportBody(suspect)).must(t, 201)
			if r.JSON["autoEscalated"] != (i == 2) {
				t.Fatalf("report %d: %s", i, r.Body)
			}
			ids = append(ids, r.str("reportId"))
		}
		// The third report, on a, counted the two made on b, and a built
		// the version that lists the address.
		if res := screen(t, a, u.Key, suspect); res["status"] != "flagged" {
			t.Fatalf("escalated address on the instance that escalated it: %v", res)
		}
		st := b.do(t, "GET", "/v1/compliance/stats", "", nil).must(t, 200).JSON["community"].(map[string]any)
		if st["totalReports"] != float64(3) || st["byStatus"].(map[string]any)["pending"] != float64(3) {
			t.Fatalf("community stats on the other instance: %v", st)
		}
		pending := b.do(t, "GET", "/v1/admin/reports?status=pending", admin, nil).must(t, 200).JSON["reports"].([]any)
		if len(pending) != 3 || pending[0].(map[string]any)["reportId"] != ids[2] {
			t.Fatalf("pending reports on the other instance: %v", pending)
		}
		r := a.do(t, "POST", "/v1/admin/reports/"+ids[0]+"/reject", admin, map[string]any{"reason": "an exchange"}).must(t, 200)
		if r.JSON["communityListed"] != false || r.JSON["treeChanged"] != true {
			t.Fatalf("reject: %s", r.Body)
		}
		if rs := b.do(t, "GET", "/v1/admin/reports?status=rejected", admin, nil).must(t, 200).JSON["reports"].([]any); len(rs) != 3 {
			t.Fatalf("rejected reports on the other instance: %v", rs)
		}
		if res := screen(t, a, u.Key, suspect); res["status"] != "clear" {
			t.Fatalf("rejected address: %v", res)
		}

		// A new instance on a fresh data dir restores the newest version
		// (the bundled snapshot, the escalation, the rejection) from
		// Postgres.
		root := a.do(t, "GET", "/v1/compliance/merkle-root", u.Key, nil).must(t, 200)
		a.stop()
		b.stop()
		c := startServer(t, pgConfig(t))
		if r := c.do(t, "GET", "/v1/compliance/merkle-root", u.Key, nil).must(t, 200); r.num("listVersion") != 3 ||
			r.num("listVersion") != root.num("listVersion") || r.str("root") != root.str("root") {
			t.Fatalf("restored root %s, want %s", r.Body, root.Body)
		}
		hist := c.do(t, "GET", "/v1/compliance/history?address="+suspect+"&chain=ethereum", u.Key, nil).must(t, 200)
		events := hist.JSON["events"].([]any)
		if len(events) != 2 || events[0].(map[string]any)["event"] != "listed" || events[1].(map[string]any)["event"] != "delisted" {
			t.Fatalf("history: %s", hist.Body)
		}
	})

	// None of these records went to the embedded store of the first
	// instance's data dir (stopping a and b again is a no-op when the
	// last subtest ran).
	a.stop()
	b.stop()
	db, err := pebble.Open(filepath.Join(cfgA.DataDir, "store"), pebble.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.LastListVersion(t.Context()); !cairn.IsCode(err, cairn.ENOTFOUND) {
		t.Fatalf("a list version in the embedded store: %v", err)
	}
	if rs, err := db.ListReports(t.Context(), "", "", 10); err != nil || len(rs) != 0 {
		t.Fatalf("reports in the embedded store: %v %v", rs, err)
	}
	if n, err := db.ScreeningCount(t.Context()); err != nil || n != 0 {
		t.Fatalf("screenings counted in the embedded store: %d %v", n, err)
	}
}

// TestIngestCommandPostgres runs `cairn ingest --store postgres://...`,
// then a server on that database and a fresh data dir: it serves the
// version the command made, without installing the bundled snapshot.
func TestIngestCommandPostgres(t *testing.T) {
	url := pgtest.URL(t)
	schema := pgtest.Schema(t, url)
	var out, errOut strings.Builder
	code := Run(t.Context(), []string{"ingest", "--data-dir", t.TempDir(), "--store", url, "--postgres-schema", schema,
		"--source", "list:ETH=testdata/sanctioned_addresses_ETH.txt"}, &out, &errOut, func(string) string { return "" })
	m := regexp.MustCompile(`list version 1: root (0x[0-9a-f]{64})`).FindStringSubmatch(out.String())
	if code != 0 || m == nil {
		t.Fatalf("ingest: exit %d\n%s%s", code, out.String(), errOut.String())
	}
	cfg := testConfig(t, t.TempDir())
	cfg.Store, cfg.PostgresSchema = url, schema
	ts := startServer(t, cfg)
	a := ts.register(t, "")
	r := ts.do(t, "GET", "/v1/compliance/merkle-root", a.Key, nil).must(t, 200)
	if r.str("root") != m[1] || r.num("listVersion") != 1 || strings.Contains(ts.logs.String(), "BUNDLED") {
		t.Fatalf("served root %s, the command made %s", r.Body, m[1])
	}
	if code := Run(t.Context(), []string{"ingest", "--store", "mysql://x", "--source", "list:ETH=a"}, &out, &errOut,
		func(string) string { return "" }); code != 1 {
		t.Fatalf("ingest with an unknown --store: exit %d", code)
	}
}

// TestPostgresInstancesStartTogether opens two instances at once on an
// empty database: both build the first list version (the bundled
// snapshot), one commit wins, and the other serves the winner's version
// instead of failing to start.
func TestPostgresInstancesStartTogether(t *testing.T) {
	url := pgtest.URL(t)
	schema := pgtest.Schema(t, url)
	ms := make([]*Main, 2)
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i := range ms {
		cfg := testConfig(t, t.TempDir())
		cfg.Store, cfg.PostgresSchema = url, schema
		ms[i] = NewMain(cfg, io.Discard, &syncBuffer{})
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = ms[i].Open(t.Context()) }()
	}
	wg.Wait()
	for i, m := range ms {
		defer m.Close()
		if errs[i] != nil {
			t.Fatalf("instance %d: %v", i, errs[i])
		}
	}
	v, err := ms[0].core.LastListVersion(t.Context())
	if err != nil || v.Version != 1 {
		t.Fatalf("stored version %+v, %v; want 1", v, err)
	}
	for i, m := range ms {
		ix := m.pipeline.Holder.Current()
		if ix == nil || ix.Version != 1 || ix.Root().String() != v.Root {
			t.Fatalf("instance %d serves another version than the stored %+v", i, v)
		}
	}
}
