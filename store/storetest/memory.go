package storetest

import (
	"fmt"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
)

// RunMemoryTests checks a store.Memories implementation. open returns a
// fresh, empty store for each subtest.
func RunMemoryTests(t *testing.T, open func(t *testing.T) store.Memories) {
	create := func(t *testing.T, s store.Memories, agent, k string, exp time.Duration) (*cairn.Memory, *cairn.MemoryVersion) {
		t.Helper()
		m := &cairn.Memory{ID: cairn.NewID(), AgentID: agent, Type: "semantic", Key: k, Importance: 0.5,
			Visibility: "private", Tags: []string{"a"}, CreatedAt: t0, UpdatedAt: t0}
		if exp != 0 {
			m.ExpiresAt = t0.Add(exp)
		}
		v := &cairn.MemoryVersion{ID: m.ID, Version: 1, BlobName: "memory/semantic/" + k + "/v1", SizeBytes: 3, CreatedAt: t0}
		if err := s.CreateMemoryVersion(ctx, m, v, &cairn.AuditEntry{AgentID: agent, Action: cairn.AuditWrite}, nil); err != nil {
			t.Fatal(err)
		}
		return m, v
	}
	next := func(t *testing.T, s store.Memories, m *cairn.Memory) *cairn.MemoryVersion {
		t.Helper()
		v := &cairn.MemoryVersion{ID: cairn.NewID(), Version: m.Latest + 1, CreatedAt: t0}
		if err := s.CreateMemoryVersion(ctx, m, v, nil, nil); err != nil {
			t.Fatal(err)
		}
		return v
	}
	t.Run("IdempotencyRecordInCommit", func(t *testing.T) { idempotencyWithCreate(t, open(t), t0) })
	t.Run("InlineContentKept", func(t *testing.T) {
		s := open(t)
		m, _ := create(t, s, "agent-a", "k", 0)
		content := []byte{0, 1, 2, 0xff, '"', '\\', 'x'} // any bytes
		v := &cairn.MemoryVersion{ID: cairn.NewID(), Version: 2, CreatedAt: t0, Inlined: true, Inline: content}
		empty := &cairn.MemoryVersion{ID: cairn.NewID(), Version: 3, CreatedAt: t0, Inlined: true}
		for _, nv := range []*cairn.MemoryVersion{v, empty} {
			if err := s.CreateMemoryVersion(ctx, m, nv, nil, nil); err != nil {
				t.Fatal(err)
			}
		}
		if _, gv, err := s.MemoryByVersionID(ctx, "agent-a", v.ID); err != nil || !gv.Inlined || string(gv.Inline) != string(content) {
			t.Fatalf("MemoryByVersionID = %+v, %v", gv, err)
		}
		vs, err := s.MemoryVersions(ctx, "agent-a", m.ID)
		if err != nil || len(vs) != 3 || !vs[0].Inlined || len(vs[0].Inline) != 0 || string(vs[1].Inline) != string(content) || vs[2].Inlined {
			t.Fatalf("MemoryVersions = %+v, %v", vs, err)
		}
	})
	t.Run("CreateGetIsolation", func(t *testing.T) {
		s := open(t)
		m, v := create(t, s, "agent-a", "notes/one", 0)
		got, gv, err := s.MemoryByVersionID(ctx, "agent-a", v.ID)
		if err != nil || got.Key != "notes/one" || got.Latest != 1 || gv.BlobName != v.BlobName || gv.MemoryID != m.ID {
			t.Fatalf("MemoryByVersionID = %+v %+v %v", got, gv, err)
		}
		for _, tc := range []struct{ agent, id string }{{"agent-b", v.ID}, {"agent-a", cairn.NewID()}, {"agent-a", "nope"}} {
			if _, _, err := s.MemoryByVersionID(ctx, tc.agent, tc.id); !cairn.IsCode(err, cairn.ENOTFOUND) {
				t.Errorf("MemoryByVersionID(%s, %s): %v", tc.agent, tc.id, err)
			}
		}
		dup := &cairn.Memory{ID: cairn.NewID(), AgentID: "agent-a", Key: "notes/one"}
		if err := s.CreateMemoryVersion(ctx, dup, &cairn.MemoryVersion{ID: dup.ID, Version: 1}, nil, nil); !cairn.IsCode(err, cairn.ECONFLICT) {
			t.Fatalf("duplicate key: %v", err)
		}
		create(t, s, "agent-b", "notes/one", 0) // keys are per agent
	})
	t.Run("ReadLogged", func(t *testing.T) {
		s := open(t)
		rl, ok := store.ReadLogOf(s)
		if !ok {
			t.Skip("the store reads and logs in two steps")
		}
		m, _ := create(t, s, "agent-a", "inline", 2*time.Hour)
		inl := &cairn.MemoryVersion{ID: cairn.NewID(), Version: 2, CreatedAt: t0, Inlined: true, Inline: []byte("x")}
		if err := s.CreateMemoryVersion(ctx, m, inl, nil, nil); err != nil {
			t.Fatal(err)
		}
		_, blobbed := create(t, s, "agent-a", "blob", 0)
		read := func(agent, id string, now time.Time) (*cairn.MemoryVersion, bool, error) {
			e := &cairn.AuditEntry{AgentID: agent, Action: cairn.AuditRead, RequestID: "req"}
			_, v, logged, err := rl.ReadMemoryVersion(ctx, agent, id, now, e)
			if logged && (e.ID == "" || e.Resource != id) {
				t.Errorf("logged entry %+v", e)
			}
			return v, logged, err
		}
		if v, logged, err := read("agent-a", inl.ID, t0); err != nil || !logged || string(v.Inline) != "x" {
			t.Fatalf("inlined version: %+v %v %v", v, logged, err)
		}
		for _, tc := range []struct {
			name, agent, id string
			now             time.Time
			found           bool
		}{
			{"expired", "agent-a", inl.ID, t0.Add(2 * time.Hour), true},
			{"blob", "agent-a", blobbed.ID, t0, true},
			{"another agent's", "agent-b", inl.ID, t0, false},
			{"unknown", "agent-a", cairn.NewID(), t0, false},
		} {
			v, logged, err := read(tc.agent, tc.id, tc.now)
			if logged || tc.found != (err == nil) || !tc.found && !cairn.IsCode(err, cairn.ENOTFOUND) || tc.found && v.ID != tc.id {
				t.Errorf("%s: %+v logged %v, %v", tc.name, v, logged, err)
			}
		}
		got, err := s.(store.Audit).ListAudit(ctx, "agent-a", cairn.AuditFilter{Action: cairn.AuditRead}, "", 10)
		if err != nil || len(got) != 1 || got[0].Resource != inl.ID || got[0].RequestID != "req" ||
			fmt.Sprint(got[0].Detail) != fmt.Sprint(map[string]any{"key": "inline", "version": 2.0}) {
			t.Fatalf("read entries = %+v, %v", got, err)
		}
	})
	t.Run("VersionsAndDelete", func(t *testing.T) {
		s := open(t)
		m, v1 := create(t, s, "agent-a", "k", 0)
		v2 := next(t, s, m)
		v3 := next(t, s, m)
		stale := *m
		stale.Latest = 1
		if err := s.CreateMemoryVersion(ctx, &stale, &cairn.MemoryVersion{ID: cairn.NewID(), Version: 2}, nil, nil); !cairn.IsCode(err, cairn.EPRECONDITION) {
			t.Fatalf("stale version: %v", err)
		}
		vs, err := s.MemoryVersions(ctx, "agent-a", m.ID)
		if err != nil || len(vs) != 3 || vs[0].ID != v3.ID || vs[2].ID != v1.ID {
			t.Fatalf("MemoryVersions = %+v, %v", vs, err)
		}
		head, gone, err := s.DeleteMemoryVersion(ctx, "agent-a", v3.ID, nil)
		if err != nil || gone.Version != 3 || head.Latest != 2 || head.LatestID != v2.ID {
			t.Fatalf("delete latest: %+v %+v %v", head, gone, err)
		}
		if head, _, err = s.DeleteMemoryVersion(ctx, "agent-a", v1.ID, nil); err != nil || head.Latest != 2 || head.Versions != 1 {
			t.Fatalf("delete older: %+v %v", head, err)
		}
		if head, _, err = s.DeleteMemoryVersion(ctx, "agent-a", v2.ID, nil); err != nil || head != nil {
			t.Fatalf("delete last: %+v %v", head, err)
		}
		if _, err := s.MemoryByKey(ctx, "agent-a", "k"); !cairn.IsCode(err, cairn.ENOTFOUND) {
			t.Fatalf("key after delete: %v", err)
		}
		create(t, s, "agent-a", "k", 0) // the key is free again
	})
	t.Run("ListPagesFiltersAndSorts", func(t *testing.T) {
		s := open(t)
		var ids []string
		for i, k := range []string{"a", "b", "c", "d", "e"} {
			m, _ := create(t, s, "agent-a", k, 0)
			_, err := s.UpdateMemory(ctx, "agent-a", m.ID, func(m *cairn.Memory) error {
				m.Importance = float64(i) / 10
				m.Pinned = i%2 == 0
				return nil
			}, nil)
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, m.ID)
		}
		create(t, s, "agent-b", "a", 0)
		var seen []string
		after := ""
		for {
			p, err := s.ListMemories(ctx, "agent-a", cairn.MemoryQuery{After: after, Limit: 2})
			if err != nil {
				t.Fatal(err)
			}
			for _, it := range p.Items {
				seen = append(seen, it.Memory.ID)
			}
			if p.Next == "" {
				break
			}
			after = p.Next
		}
		if len(seen) != 5 || seen[0] != ids[4] || seen[4] != ids[0] {
			t.Fatalf("pages = %v, want %v reversed", seen, ids)
		}
		yes := true
		p, err := s.ListMemories(ctx, "agent-a", cairn.MemoryQuery{Filter: cairn.MemoryFilter{Pinned: &yes, SortBy: cairn.SortImportance}, Offset: 1, Limit: 10, Count: true})
		if err != nil || p.Total != 3 || len(p.Items) != 2 || p.Items[0].Memory.ID != ids[2] {
			t.Fatalf("pinned by importance offset 1 = %+v, %v", p, err)
		}
		if _, err := s.ListMemories(ctx, "agent-a", cairn.MemoryQuery{After: "zz", Limit: 2}); !cairn.IsCode(err, cairn.EINVALID) {
			t.Fatalf("bad position: %v", err)
		}
	})
	t.Run("Expiry", func(t *testing.T) {
		s := open(t)
		soon, _ := create(t, s, "agent-a", "soon", time.Hour)
		create(t, s, "agent-a", "later", 48*time.Hour)
		pinned, _ := create(t, s, "agent-b", "pinned", time.Hour)
		if _, err := s.UpdateMemory(ctx, "agent-b", pinned.ID, func(m *cairn.Memory) error { m.Pinned = true; return nil }, nil); err != nil {
			t.Fatal(err)
		}
		got, err := s.ExpiredMemories(ctx, t0.Add(2*time.Hour), 10)
		if err != nil || len(got) != 1 || got[0].ID != soon.ID {
			t.Fatalf("ExpiredMemories = %+v, %v", got, err)
		}
		got, err = s.ExpiringMemories(ctx, "agent-a", t0, t0.Add(72*time.Hour), "", 10)
		if err != nil || len(got) != 2 || got[0].ID != soon.ID {
			t.Fatalf("ExpiringMemories = %+v, %v", got, err)
		}
		// From a time after "soon" expired: only "later", whatever the limit.
		got, err = s.ExpiringMemories(ctx, "agent-a", t0.Add(time.Hour), t0.Add(72*time.Hour), "", 1)
		if err != nil || len(got) != 1 || got[0].Key != "later" {
			t.Fatalf("ExpiringMemories after an expiry = %+v, %v", got, err)
		}
		// The bound is inclusive at until, exclusive at from.
		if got, err = s.ExpiringMemories(ctx, "agent-a", t0, t0.Add(time.Hour), "", 10); err != nil || len(got) != 1 {
			t.Fatalf("ExpiringMemories until the expiry = %+v, %v", got, err)
		}
		// The type filter applies before the limit.
		create(t, s, "agent-c", "sem", time.Hour) // semantic, sooner
		ep := &cairn.Memory{ID: cairn.NewID(), AgentID: "agent-c", Type: "episodic", Key: "ep", Importance: 0.5,
			Visibility: "private", Tags: []string{}, CreatedAt: t0, UpdatedAt: t0, ExpiresAt: t0.Add(50 * time.Hour)}
		if err := s.CreateMemoryVersion(ctx, ep, &cairn.MemoryVersion{ID: ep.ID, Version: 1, BlobName: "memory/episodic/ep/v1", CreatedAt: t0},
			&cairn.AuditEntry{AgentID: "agent-c", Action: cairn.AuditWrite}, nil); err != nil {
			t.Fatal(err)
		}
		got, err = s.ExpiringMemories(ctx, "agent-c", t0, t0.Add(72*time.Hour), "episodic", 1)
		if err != nil || len(got) != 1 || got[0].Key != "ep" {
			t.Fatalf("ExpiringMemories of a type = %+v, %v", got, err)
		}
		expiringAfter(t, s)
		p, err := s.ListMemories(ctx, "agent-a", cairn.MemoryQuery{Filter: cairn.MemoryFilter{Now: t0.Add(2 * time.Hour)}, Limit: 10, Count: true})
		if err != nil || p.Total != 1 {
			t.Fatalf("expired listed: %+v %v", p, err)
		}
	})
	t.Run("KeysAndScan", func(t *testing.T) {
		s := open(t)
		for _, k := range []string{"proj/a", "proj/b", "prox", "other"} {
			create(t, s, "agent-a", k, 0)
		}
		var keys []string
		if err := s.MemoryKeys(ctx, "agent-a", "proj/", func(k, _ string) bool { keys = append(keys, k); return true }); err != nil {
			t.Fatal(err)
		}
		if len(keys) != 2 || keys[0] != "proj/a" {
			t.Fatalf("keys = %v", keys)
		}
		n := 0
		if err := s.ScanLatestMemories(ctx, func(m *cairn.Memory, v *cairn.MemoryVersion) error { n++; return nil }); err != nil || n != 4 {
			t.Fatalf("scan = %d, %v", n, err)
		}
	})
	t.Run("EmbeddingRoundTrip", func(t *testing.T) {
		s := open(t)
		m, _ := create(t, s, "agent-a", "vec", 0)
		e := &cairn.Embedding{Space: "client", Model: "m1", Values: []float32{0.1, -2.5e-7, 3.4028235e38, 1}}
		v := &cairn.MemoryVersion{ID: cairn.NewID(), Version: 2, CreatedAt: t0, Embedding: e}
		if err := s.CreateMemoryVersion(ctx, m, v, nil, nil); err != nil {
			t.Fatal(err)
		}
		_, got, err := s.MemoryByVersionID(ctx, "agent-a", v.ID)
		if err != nil || got.Embedding == nil || got.Embedding.Space != "client" || got.Embedding.Model != "m1" ||
			len(got.Embedding.Values) != 4 {
			t.Fatalf("embedding = %+v, %v", got.Embedding, err)
		}
		for i, x := range e.Values {
			if got.Embedding.Values[i] != x {
				t.Fatalf("value %d = %v, want %v", i, got.Embedding.Values[i], x)
			}
		}
		se := &cairn.Embedding{Space: "server", Model: "srv", Values: []float32{0.5, 0.25}}
		if err := s.SetServerEmbedding(ctx, "agent-a", v.ID, se); err != nil {
			t.Fatal(err)
		}
		if err := s.SetServerEmbedding(ctx, "agent-b", v.ID, se); !cairn.IsCode(err, cairn.ENOTFOUND) {
			t.Fatalf("another agent's version: %v", err)
		}
		if _, got, err = s.MemoryByVersionID(ctx, "agent-a", v.ID); err != nil || got.ServerEmbedding == nil ||
			got.ServerEmbedding.Model != "srv" || len(got.ServerEmbedding.Values) != 2 || got.Embedding == nil {
			t.Fatalf("server embedding = %+v, %v", got, err)
		}
		var scanned *cairn.Embedding
		if err := s.ScanLatestMemories(ctx, func(_ *cairn.Memory, v *cairn.MemoryVersion) error { scanned = v.Embedding; return nil }); err != nil ||
			scanned == nil || len(scanned.Values) != 4 {
			t.Fatalf("scan embedding = %+v, %v", scanned, err)
		}
	})
}

// expiringAfter checks ExpiringAfter over the memories of the Expiry
// test: soon (agent-a) and sem (agent-c) expire at t0+1h, later
// (agent-a) at t0+48h, ep (agent-c) at t0+50h; pinned (agent-b) never.
func expiringAfter(t *testing.T, s store.Memories) {
	t.Helper()
	var keys []string
	after := cairn.Memory{ExpiresAt: t0}
	for {
		page, err := s.ExpiringAfter(ctx, after, t0.Add(48*time.Hour), 1)
		if err != nil {
			t.Fatal(err)
		}
		if len(page) == 0 {
			break
		}
		keys = append(keys, page[0].Key)
		after = page[0]
	}
	if fmt.Sprint(keys) != "[soon sem later]" {
		t.Fatalf("ExpiringAfter pages = %v, want [soon sem later] (by expiry, then agent; until inclusive; no pinned)", keys)
	}
	all, err := s.ExpiringAfter(ctx, cairn.Memory{ExpiresAt: t0.Add(time.Hour)}, t0.Add(time.Hour), 10)
	if err != nil || len(all) != 2 {
		t.Fatalf("ExpiringAfter from an expiry (inclusive) = %+v, %v", all, err)
	}
	if got, err := s.ExpiringAfter(ctx, cairn.Memory{ExpiresAt: t0.Add(49 * time.Hour)}, t0.Add(48*time.Hour), 10); err != nil || len(got) != 0 {
		t.Fatalf("ExpiringAfter an empty range = %+v, %v", got, err)
	}
}
