package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store/postgres/pgtest"
	"github.com/jackc/pgx/v5"
)

// eventually polls cond every 50 ms until it holds, failing the test after
// a generous deadline.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	eventuallyEvery(t, what, 50*time.Millisecond, cond)
}

// eventuallyEvery is eventually polling every interval (a poll that is a
// paid request: slowly enough to stay within the rate limit).
func eventuallyEvery(t *testing.T, what string, interval time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("not within 60s: %s", what)
		}
		time.Sleep(interval)
	}
}

// TestE2ECluster runs two instances on one Postgres schema and one S3
// bucket (gofakes3), each with its own data dir, as two `cairn serve
// --store postgres://... --blob s3` behind one load balancer. Requests are
// spread over both; the first instance leads, the second follows its list
// versions through notifications alone (its fallback poll is an hour),
// and takes over when the leader stops.
func TestE2ECluster(t *testing.T) {
	url := pgtest.URL(t)
	schema := pgtest.Schema(t, url)
	list := filepath.Join(t.TempDir(), "eth.txt")
	addrs := []string{"0x00000000000000000000000000000000000c1001", "0x00000000000000000000000000000000000c1002"}
	writeList := func() {
		if err := os.WriteFile(list, []byte(strings.Join(addrs, "\n")+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	writeList()
	s3cfg, _ := s3Server(t)
	instance := func() *testServer {
		cfg := s3cfg
		cfg.DataDir = t.TempDir()
		cfg.Store, cfg.PostgresSchema = url, schema
		cfg.RegisterLimitPerIP = 1000
		cfg.Sources = stringList{"list:ETH=" + list}
		cfg.IngestSchedule = "@every 1000h"
		cfg.LeaderInterval, cfg.ListPollInterval = 100*time.Millisecond, time.Hour
		return startServer(t, cfg)
	}
	a := instance()
	eventually(t, "the first instance leads", a.m.Leading)
	b := instance()
	both := []*testServer{a, b}
	// b never leads while a runs.
	stopWatch := make(chan struct{})
	var watch sync.WaitGroup
	var bLed bool
	watch.Go(func() {
		for {
			select {
			case <-stopWatch:
				return
			case <-time.After(20 * time.Millisecond):
				if b.m.Leading() {
					bLed = true
				}
			}
		}
	})

	t.Run("Memory", func(t *testing.T) {
		u := a.register(t, "cluster-mem")
		id := a.do(t, "POST", "/v1/memory", u.Key, map[string]any{"key": "notes/fox", "content": "the quick brown fox"}).must(t, 201).str("id")
		if r := b.do(t, "GET", "/v1/memory/"+id, u.Key, nil).must(t, 200); r.str("content") != "the quick brown fox" {
			t.Fatalf("read on the other instance: %s", r.Body)
		}
		v2 := b.do(t, "PUT", "/v1/memory/"+id, u.Key, map[string]any{"content": "the lazy dog"}).must(t, 200).str("id")
		if r := a.do(t, "GET", "/v1/memory/"+v2, u.Key, nil).must(t, 200); r.str("content") != "the lazy dog" || r.num("version") != 2 {
			t.Fatalf("the version made on the other instance: %s", r.Body)
		}
		if r := a.do(t, "GET", "/v1/memory/"+id+"/history", u.Key, nil).must(t, 200); len(r.JSON["versions"].([]any)) != 2 {
			t.Fatalf("history: %s", r.Body)
		}
		a.do(t, "DELETE", "/v1/memory/"+id, u.Key, nil).must(t, 200)
		b.do(t, "GET", "/v1/memory/"+id, u.Key, nil).problem(t, 404, cairn.ENOTFOUND)
	})

	t.Run("VectorSearch", func(t *testing.T) {
		// Vector search reads each instance's own index: what one
		// instance writes reaches the other's through the memory change
		// feed, within seconds.
		u := a.register(t, "cluster-vectors")
		a.topUp(t, u, 1000)
		found := func(ts *testServer, query string) []string { // the version ids found
			r := ts.do(t, "POST", "/v1/memory/vector-search", u.Key, map[string]any{"query": query, "minScore": 0.2}).must(t, 200)
			var ids []string
			for _, h := range r.JSON["results"].([]any) {
				ids = append(ids, h.(map[string]any)["id"].(string))
			}
			return ids
		}
		// within polls a search until it finds want, 4 times a second:
		// failing, it stays within the rate limit of 300 requests a minute.
		within := func(what string, ts *testServer, query string, want ...string) {
			t.Helper()
			eventuallyEvery(t, what, 250*time.Millisecond, func() bool { return slices.Equal(found(ts, query), want) })
		}
		id := a.do(t, "POST", "/v1/memory", u.Key, map[string]any{"key": "notes/heron", "content": "a grey heron fishing"}).must(t, 201).str("id")
		within("the other instance finds a new memory", b, "heron", id)
		v2 := a.do(t, "PUT", "/v1/memory/"+id, u.Key, map[string]any{"content": "an otter swimming"}).must(t, 200).str("id")
		within("the other instance finds the new version", b, "otter", v2)
		if got := found(b, "heron"); len(got) != 0 {
			t.Fatalf("the replaced version still found: %v", got)
		}
		// The other way round, and a delete.
		w := b.do(t, "POST", "/v1/memory", u.Key, map[string]any{"key": "notes/wren", "content": "a small brown wren"}).must(t, 201).str("id")
		within("the first instance finds the second's memory", a, "wren", w)
		a.do(t, "DELETE", "/v1/memory/"+w, u.Key, nil).must(t, 200)
		eventually(t, "a delete on one instance leaves the other's index", func() bool {
			return b.m.memory.Vectors.Space(u.ID, "hash-v1").Vectors == 1 // notes/heron's
		})
		if got := found(b, "wren"); len(got) != 0 {
			t.Fatalf("the deleted memory found: %v", got)
		}

		// The listening connections end (as when the network fails): the
		// instances listen again and catch up with what they missed.
		terminate := func() int {
			conn, err := pgx.Connect(t.Context(), url)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close(context.Background())
			var n int
			if err := conn.QueryRow(t.Context(), `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE query = $1`,
				"LISTEN "+pgx.Identifier{a.m.pg.MemoryChannel()}.Sanitize()).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		if n := terminate(); n != 2 {
			t.Fatalf("%d listening connections ended, want 2", n)
		}
		id = a.do(t, "POST", "/v1/memory", u.Key, map[string]any{"key": "notes/crane", "content": "a crane dancing"}).must(t, 201).str("id")
		within("the other instance finds a memory written while it listened again", b, "crane", id)
		eventually(t, "both instances caught up", func() bool {
			return strings.Contains(b.logs.String(), "caught up with the memory changes") &&
				strings.Contains(a.logs.String(), "caught up with the memory changes")
		})
	})

	t.Run("Search", func(t *testing.T) {
		// Search is answered by PostgreSQL: what one instance commits, the
		// other finds at once, with no index of its own to catch up.
		u := a.register(t, "cluster-search")
		find := func(ts *testServer, body map[string]any) string {
			t.Helper()
			keys, scores, _ := searchKeys(t, ts, u.Key, "/v1/memory/search", body)
			return fmt.Sprint(keys, scores)
		}
		want := func(ts *testServer, body map[string]any, want string) {
			t.Helper()
			if got := find(ts, body); got != want {
				t.Fatalf("search %v: got %s, want %s", body, got, want)
			}
		}
		id := a.do(t, "POST", "/v1/memory", u.Key, map[string]any{"key": "Notes/Orbit", "content": "The comet passes in March."}).must(t, 201).str("id")
		if got := find(b, map[string]any{"contentQuery": "comet march"}); !strings.HasPrefix(got, "[Notes/Orbit] [") {
			t.Fatalf("full text on the other instance: %s", got)
		}
		want(b, map[string]any{"query": "notes/orbit"}, "[Notes/Orbit] [3]")
		want(b, map[string]any{"query": "ORBIT"}, "[Notes/Orbit] [1]")
		v2 := b.do(t, "PUT", "/v1/memory/"+id, u.Key, map[string]any{"content": "The asteroid passes in May."}).must(t, 200).str("id")
		want(a, map[string]any{"contentQuery": "comet"}, "[] []")
		if got := find(a, map[string]any{"contentQuery": "asteroid"}); !strings.HasPrefix(got, "[Notes/Orbit] [") {
			t.Fatalf("the new version on the other instance: %s", got)
		}
		a.do(t, "DELETE", "/v1/memory/"+v2, u.Key, nil).must(t, 200) // version 1 is the latest again
		want(b, map[string]any{"contentQuery": "asteroid"}, "[] []")
		if got := find(b, map[string]any{"contentQuery": "comet"}); !strings.HasPrefix(got, "[Notes/Orbit] [") {
			t.Fatalf("the restored version on the other instance: %s", got)
		}
		a.do(t, "DELETE", "/v1/memory/"+id, u.Key, nil).must(t, 200)
		want(b, map[string]any{"contentQuery": "comet"}, "[] []")
		want(b, map[string]any{"query": "orbit"}, "[] []")
	})

	t.Run("Media", func(t *testing.T) {
		u := a.register(t, "cluster-media")
		data := []byte(strings.Repeat("0123456789", 1000))
		id := a.upload(t, u.Key, part{name: "file", filename: "n.txt", contentType: "text/plain", body: data}).must(t, 201).str("id")
		r := b.stream(t, "GET", u.Key, id, "Range", "bytes=10-19")
		if r.Status != 206 || string(r.Body) != string(data[10:20]) {
			t.Fatalf("range read on the other instance: %d %q", r.Status, r.Body)
		}
		b.do(t, "DELETE", "/v1/media/"+id, u.Key, nil).must(t, 200)
		a.do(t, "GET", "/v1/media/"+id, u.Key, nil).problem(t, 404, cairn.ENOTFOUND)
	})

	t.Run("ConcurrentCharges", func(t *testing.T) {
		// 100 starter credits pay for 20 writes of 5; 28 are sent at once,
		// half to each instance.
		u := a.register(t, "cluster-pay")
		const n = 28
		statuses := make([]int, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				r, err := both[i%2].try(t, "POST", "/v1/memory", u.Key, map[string]any{"key": fmt.Sprintf("k/%d", i), "content": "x"})
				if err != nil {
					t.Errorf("write %d: %v", i, err)
					return
				}
				if r.Status != 201 && r.Status != 402 {
					t.Errorf("write %d: %d %s", i, r.Status, r.Body)
				}
				statuses[i] = r.Status
			})
		}
		wg.Wait()
		created := 0
		for _, s := range statuses {
			if s == 201 {
				created++
			}
		}
		bal := a.balance(t, u.Key)
		sum, _ := ledgerSum(t, b, u.Key)
		if created != 20 || bal != 0 || sum != int64(bal) || b.balance(t, u.Key) != bal {
			t.Fatalf("%d writes paid, balance %d, ledger sum %d; want 20, 0, 0", created, bal, sum)
		}
	})

	t.Run("WriteRateLimit", func(t *testing.T) {
		// The limit (30 writes a minute, per agent) is a GCRA: a burst of
		// 30, then one more write every 2 s. Writes alternate between the
		// instances until one is refused: counted together, that is after
		// 30 writes plus one per 2 s the writes took (under -race on a
		// loaded machine, 30 writes can take longer than 2 s); counted per
		// instance, it would be after 60.
		u := a.register(t, "cluster-limit")
		a.topUp(t, u, 1000)
		start := time.Now()
		n := 0
		for ; ; n++ {
			r := both[n%2].do(t, "POST", "/v1/memory", u.Key, map[string]any{"key": fmt.Sprintf("w/%d", n), "content": "x"})
			if r.Status == 429 {
				r.problem(t, 429, cairn.ERATELIMIT)
				break
			}
			r.must(t, 201)
			if n > 60 {
				t.Fatalf("%d writes accepted: the instances do not count together", n)
			}
		}
		if most := 30 + int(time.Since(start)/(2*time.Second)); n < 30 || n > most {
			t.Fatalf("%d writes accepted before the first refusal in %v; want 30 to %d", n, time.Since(start), most)
		}
		// Refused on the other instance too.
		both[(n+1)%2].do(t, "POST", "/v1/memory", u.Key, map[string]any{"key": "w/last", "content": "x"}).problem(t, 429, cairn.ERATELIMIT)
	})

	u := b.register(t, "cluster-screen")
	root := func(t *testing.T, ts *testServer) (float64, string) {
		t.Helper()
		r := ts.do(t, "GET", "/v1/compliance/merkle-root", u.Key, nil).must(t, 200)
		return r.num("listVersion"), r.str("root")
	}
	sameRoot := func(t *testing.T) func() bool {
		return func() bool {
			va, ra := root(t, a)
			vb, rb := root(t, b)
			return va == vb && ra == rb
		}
	}
	screen := func(t *testing.T, ts *testServer, addr string) string {
		t.Helper()
		r := ts.do(t, "POST", "/v1/compliance/screen", u.Key, map[string]any{
			"addresses": []map[string]any{{"address": addr, "chain": "ethereum"}}, "includeCommunity": true}).must(t, 200)
		return r.JSON["results"].([]any)[0].(map[string]any)["status"].(string)
	}

	t.Run("ListVersion", func(t *testing.T) {
		eventually(t, "both instances serve one root", sameRoot(t))
		before, _ := root(t, a)
		addrs = append(addrs, "0x00000000000000000000000000000000000c1003")
		writeList()
		a.do(t, "POST", "/v1/admin/ingest", admin, nil).must(t, 200)
		va, ra := root(t, a)
		if va != before+1 {
			t.Fatalf("the leader's version %v after an ingest from %v", va, before)
		}
		eventually(t, "the follower serves the leader's new root", func() bool {
			vb, rb := root(t, b)
			return vb == va && rb == ra
		})
		if got := screen(t, b, addrs[2]); got != "sanctioned" {
			t.Fatalf("the newly listed address on the follower: %s", got)
		}
	})

	t.Run("Escalation", func(t *testing.T) {
		const suspect = "0x00000000000000000000000000000000005c0b1d"
		for range 3 {
			b.do(t, "POST", "/v1/compliance/report", b.registerEstablished(t).Key, reportBody(suspect)).must(t, 201)
		}
		if got := screen(t, b, suspect); got != "flagged" {
			t.Fatalf("escalated address on the instance that escalated it: %s", got)
		}
		eventually(t, "the escalation shows on the other instance", func() bool { return screen(t, a, suspect) == "flagged" })
		eventually(t, "both instances serve one root", sameRoot(t))
	})

	t.Run("Takeover", func(t *testing.T) {
		close(stopWatch)
		watch.Wait()
		if bLed {
			t.Fatal("the second instance led while the first did")
		}
		before, _ := root(t, b)
		a.stop()
		eventually(t, "the second instance leads", b.m.Leading)
		// Its first leadership runs the start-up ingest, which it skipped
		// at start as a follower.
		eventually(t, "the new leader ingests", func() bool { v, _ := root(t, b); return v > before })
		for _, want := range []string{"leading: this instance runs", "source ingested"} {
			if !strings.Contains(b.logs.String(), want) {
				t.Fatalf("the new leader's log lacks %q", want)
			}
		}
		if got := screen(t, b, addrs[0]); got != "sanctioned" {
			t.Fatalf("after the take-over: %s", got)
		}
	})
}

// TestLeadership: on the embedded store the one process leads; on
// Postgres a non-positive --leader-interval, --list-poll-interval or
// --memory-catch-up-interval is refused at start.
func TestLeadership(t *testing.T) {
	ts := startServer(t, testConfig(t, t.TempDir()))
	eventually(t, "the embedded store's process leads", ts.m.Leading)

	url := pgtest.URL(t)
	for _, bad := range []func(*Config){
		func(c *Config) { c.LeaderInterval = 0 },
		func(c *Config) { c.ListPollInterval = -time.Second },
		func(c *Config) { c.MemoryCatchUpInterval = 0 },
	} {
		cfg := testConfig(t, t.TempDir())
		cfg.Store, cfg.PostgresSchema = url, pgtest.Schema(t, url)
		bad(&cfg)
		m := NewMain(cfg, io.Discard, &syncBuffer{})
		err := m.Open(t.Context())
		_ = m.Close()
		if err == nil || !strings.Contains(err.Error(), "--leader-interval, --list-poll-interval and --memory-catch-up-interval must be positive") {
			t.Fatalf("open: %v", err)
		}
	}
}
