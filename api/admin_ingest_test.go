package api_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/cairn-dev/cairn/api/apitest"
	"github.com/cairn-dev/cairn/ingest"
	"github.com/cairn-dev/cairn/internal/wiring"
)

// TestIngestWithEverySourceDownKeepsTheVersion: an ingestion whose every
// source fails (the list server down, as offline) stores no new list
// version; the installed one stays, as the log says.
func TestIngestWithEverySourceDownKeepsTheVersion(t *testing.T) {
	var up atomic.Bool
	up.Store(true)
	src := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !up.Load() {
			http.Error(w, "down", http.StatusServiceUnavailable)
			return
		}
		w.Write([]byte("0x098B716B8Aaf21512996dC57EB0615e2383E2f96\n"))
	}))
	defer src.Close()
	var p *ingest.Pipeline
	ls := apitest.NewServer(t, func(parts *wiring.Parts) {
		p = &ingest.Pipeline{Sources: []ingest.Source{{Name: "list:ETH", Location: src.URL + "/eth.txt"}}, Blobs: parts.Blobs, Store: parts.Core,
			Holder: parts.Screening, Clock: parts.Clock}
		parts.Pipeline = p
	})
	if _, err := p.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	up.Store(false)
	r := ls.Do(t, "POST", "/v1/admin/ingest", apitest.AdminToken, nil).Must(t, http.StatusOK)
	if r.Num("listVersion") != 1 {
		t.Fatalf("ingest with the source down: %s", r.Body)
	}
	key := ls.Register(t, "tester").Key
	v := ls.Do(t, "GET", "/v1/compliance/versions", key, nil).Must(t, http.StatusOK)
	if vs, _ := v.JSON["versions"].([]any); len(vs) != 1 {
		t.Fatalf("list versions after a failed ingestion: %s", v.Body)
	}
}
