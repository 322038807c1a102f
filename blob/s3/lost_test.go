package s3

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/blob"
)

// TestPutAnswerLost: the server stores a Put's object, then the connection
// is cut before its answer; the client sends the PUT again, which the
// server refuses (If-None-Match: * on a taken name). Put knows the object
// for the one it wrote (by its version tag) and succeeds, where it used to
// report the name taken by its own blob.
func TestPutAnswerLost(t *testing.T) {
	fake := gofakes3.New(s3mem.New()).Server()
	var lose atomic.Bool
	sv := handlerServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPut && strings.HasSuffix(r.URL.Path, "/lost") && lose.CompareAndSwap(true, false) {
			fake.ServeHTTP(httptest.NewRecorder(), r) // stored; the answer goes nowhere
			if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
				conn.Close()
			}
			return
		}
		fake.ServeHTTP(w, r)
	}))
	s := sv.store(t, Options{})
	if !s.Conditional() {
		t.Fatal("gofakes3 found not to honour If-None-Match")
	}
	data := []byte("stored at the first try")
	lose.Store(true)
	info, err := s.Put(t.Context(), "lost", bytes.NewReader(data), blob.PutOptions{})
	if err != nil {
		t.Fatalf("Put whose answer was lost: %v", err)
	}
	if lose.Load() {
		t.Fatal("no answer was lost")
	}
	if got, err := s.Stat(t.Context(), "lost"); err != nil || got.SHA256 != hexSum(data) || got.SHA256 != info.SHA256 {
		t.Fatalf("Stat = %+v, %v; Put said %+v", got, err, info)
	}
	if _, err := s.Put(t.Context(), "lost", bytes.NewReader(data), blob.PutOptions{}); !cairn.IsCode(err, cairn.ECONFLICT) {
		t.Fatalf("second Put of the name: %v, want %s", err, cairn.ECONFLICT)
	}
}
