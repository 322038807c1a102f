package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
)

func TestE2EMediaListAndExpiry(t *testing.T) {
	cfg := testConfig(t, t.TempDir())
	cfg.TTLSweepInterval = 0
	clock := cairn.NewManualClock(time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC))
	ts := startServer(t, cfg, func(m *Main) { m.Clock = clock })
	a := ts.register(t, "")
	ts.do(t, "POST", "/v1/admin/credits", admin, map[string]any{"developerId": a.DeveloperID, "amount": 1000, "reason": "test"}).must(t, 200)
	var ids []string
	for i, ct := range []string{"image/png", "audio/wav", "image/gif", "text/plain", "image/jpeg"} {
		ttl := "30d"
		if i == 0 {
			ttl = "1h"
		}
		r := ts.upload(t, a.Key, part{name: "file", filename: "f", contentType: ct, body: []byte("x")}, field("expiresIn", ttl)).must(t, 201)
		ids = append(ids, r.str("id"))
		clock.Advance(time.Millisecond)
	}
	pinned := ts.upload(t, a.Key, part{name: "file", filename: "keep.txt", body: []byte("keep")}, field("pinned", "true"), field("expiresIn", "1h")).must(t, 201)

	t.Run("CursorPages", func(t *testing.T) {
		var got []string
		cursor := ""
		for {
			r := ts.do(t, "GET", "/v1/media?category=photo&limit=2&cursor="+cursor, a.Key, nil).must(t, 200)
			for _, m := range r.JSON["media"].([]any) {
				got = append(got, m.(map[string]any)["id"].(string))
			}
			if r.JSON["hasMore"] != true {
				break
			}
			cursor = r.str("nextCursor")
		}
		if strings.Join(got, ",") != strings.Join([]string{ids[4], ids[2], ids[0]}, ",") {
			t.Fatalf("photos newest first: %v", got)
		}
		ts.do(t, "GET", "/v1/media?category=film", a.Key, nil).problem(t, 400, cairn.EINVALID)
		r := ts.do(t, "GET", "/v1/media?limit=1", a.Key, nil).must(t, 200)
		ts.do(t, "GET", "/v1/media?limit=1&category=photo&cursor="+r.str("nextCursor"), a.Key, nil).problem(t, 400, cairn.EINVALID)
	})
	clock.Advance(2 * time.Hour)
	t.Run("ExpiredNeverServed", func(t *testing.T) {
		ts.do(t, "GET", "/v1/media/"+ids[0], a.Key, nil).problem(t, 404, cairn.ENOTFOUND)
		ts.stream(t, "GET", a.Key, ids[0]).problem(t, 404, cairn.ENOTFOUND)
		r := ts.do(t, "GET", "/v1/media?category=photo", a.Key, nil).must(t, 200)
		if len(r.JSON["media"].([]any)) != 2 {
			t.Fatalf("expired media listed: %s", r.Body)
		}
		if r := ts.stream(t, "GET", a.Key, pinned.str("id")).must(t, 200); string(r.Body) != "keep" {
			t.Fatal("pinned media not served after its expiry")
		}
	})
	t.Run("Sweep", func(t *testing.T) {
		ts.m.sweepOnce(context.Background())
		if _, err := ts.m.store.GetMedia(context.Background(), a.ID, ids[0]); !cairn.IsCode(err, cairn.ENOTFOUND) {
			t.Fatalf("expired record not swept: %v", err)
		}
		if _, err := ts.m.store.GetMedia(context.Background(), a.ID, pinned.str("id")); err != nil {
			t.Fatalf("pinned record swept: %v", err)
		}
	})
}
