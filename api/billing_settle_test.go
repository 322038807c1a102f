package api_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/api/apitest"
)

// hangUpWriter is a client that disconnects as soon as the answer's status
// is written: the request's context ends while the server still has its
// bookkeeping to do.
type hangUpWriter struct {
	*httptest.ResponseRecorder
	cancel context.CancelFunc
}

func (w *hangUpWriter) WriteHeader(code int) {
	w.ResponseRecorder.WriteHeader(code)
	w.cancel()
}

// TestE2ESettledMarkSurvivesDisconnect: a priced write that ends in 404
// keeps its charge (spec 7) and is marked settled for the start-up
// recovery of charges; a client hanging up once the 404 is written must
// not drop the mark, or the next start would refund a charge that stands.
func TestE2ESettledMarkSurvivesDisconnect(t *testing.T) {
	ts := apitest.NewServer(t)
	a := ts.Register(t, "")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req := httptest.NewRequestWithContext(ctx, http.MethodPut, "/v1/memory/"+cairn.NewID(), strings.NewReader(`{"content":"x"}`))
	req.Header.Set("Authorization", "Bearer "+a.Key)
	req.Header.Set("Content-Type", "application/json")
	w := &hangUpWriter{ResponseRecorder: httptest.NewRecorder(), cancel: cancel}
	ts.API.Handler().ServeHTTP(w, req)
	if w.Code != http.StatusNotFound {
		t.Fatalf("status %d, want 404: %s", w.Code, w.Body)
	}
	if got := ts.Balance(t, a.Key); got != 95 {
		t.Fatalf("balance %d, want 95: a 404 keeps its charge", got)
	}
	n := 0
	if err := ts.Store.SettledSince(context.Background(), time.Time{}, func(string) bool { n++; return true }); err != nil {
		t.Fatal(err)
	}
	if n != 1 {
		t.Fatalf("%d settled marks, want 1: the charge of the 404 must be marked although the client hung up", n)
	}
}
