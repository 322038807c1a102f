package api_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/api/apitest"
)

func TestE2EMediaListAndExpiry(t *testing.T) {
	// The test server sweeps only when told (Sweep).
	clock := cairn.NewManualClock(time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC))
	ts := apitest.NewServer(t, apitest.WithClock(clock))
	a := ts.Register(t, "")
	ts.Do(t, "POST", "/v1/admin/credits", apitest.AdminToken, map[string]any{"developerId": a.DeveloperID, "amount": 1000, "reason": "test"}).Must(t, 200)
	var ids []string
	for i, ct := range []string{"image/png", "audio/wav", "image/gif", "text/plain", "image/jpeg"} {
		ttl := "30d"
		if i == 0 {
			ttl = "1h"
		}
		r := ts.Upload(t, a.Key, apitest.Part{Name: "file", Filename: "f", ContentType: ct, Body: []byte("x")}, apitest.Field("expiresIn", ttl)).Must(t, 201)
		ids = append(ids, r.Str("id"))
		clock.Advance(time.Millisecond)
	}
	pinned := ts.Upload(t, a.Key, apitest.Part{Name: "file", Filename: "keep.txt", Body: []byte("keep")}, apitest.Field("pinned", "true"), apitest.Field("expiresIn", "1h")).Must(t, 201)

	t.Run("CursorPages", func(t *testing.T) {
		var got []string
		cursor := ""
		for {
			r := ts.Do(t, "GET", "/v1/media?category=photo&limit=2&cursor="+cursor, a.Key, nil).Must(t, 200)
			for _, m := range r.JSON["media"].([]any) {
				got = append(got, m.(map[string]any)["id"].(string))
			}
			if r.JSON["hasMore"] != true {
				break
			}
			cursor = r.Str("nextCursor")
		}
		if strings.Join(got, ",") != strings.Join([]string{ids[4], ids[2], ids[0]}, ",") {
			t.Fatalf("photos newest first: %v", got)
		}
		ts.Do(t, "GET", "/v1/media?category=film", a.Key, nil).Problem(t, 400, cairn.EINVALID)
		r := ts.Do(t, "GET", "/v1/media?limit=1", a.Key, nil).Must(t, 200)
		ts.Do(t, "GET", "/v1/media?limit=1&category=photo&cursor="+r.Str("nextCursor"), a.Key, nil).Problem(t, 400, cairn.EINVALID)
	})
	clock.Advance(2 * time.Hour)
	t.Run("ExpiredNeverServed", func(t *testing.T) {
		ts.Do(t, "GET", "/v1/media/"+ids[0], a.Key, nil).Problem(t, 404, cairn.ENOTFOUND)
		ts.Stream(t, "GET", a.Key, ids[0]).Problem(t, 404, cairn.ENOTFOUND)
		r := ts.Do(t, "GET", "/v1/media?category=photo", a.Key, nil).Must(t, 200)
		if len(r.JSON["media"].([]any)) != 2 {
			t.Fatalf("expired media listed: %s", r.Body)
		}
		if r := ts.Stream(t, "GET", a.Key, pinned.Str("id")).Must(t, 200); string(r.Body) != "keep" {
			t.Fatal("pinned media not served after its expiry")
		}
	})
	t.Run("Sweep", func(t *testing.T) {
		ts.Sweep(t)
		if _, err := ts.Store.GetMedia(context.Background(), a.ID, ids[0]); !cairn.IsCode(err, cairn.ENOTFOUND) {
			t.Fatalf("expired record not swept: %v", err)
		}
		if _, err := ts.Store.GetMedia(context.Background(), a.ID, pinned.Str("id")); err != nil {
			t.Fatalf("pinned record swept: %v", err)
		}
	})
}
