package api_test

import (
	"net/http"
	"testing"

	"github.com/cairn-dev/cairn/api/apitest"
)

// TestLiveServer checks the test server (apitest.NewServer): register, store, read.
func TestLiveServer(t *testing.T) {
	ls := apitest.NewServer(t)
	key := ls.Register(t, "tester").Key
	created := ls.Do(t, http.MethodPost, "/v1/memory", key, map[string]any{"key": "a/b", "content": "x"}).Must(t, http.StatusCreated)
	ls.Do(t, http.MethodGet, "/v1/memory/"+created.Str("id"), key, nil).Must(t, http.StatusOK)
	if got := ls.Balance(t, key); got != 94 {
		t.Fatalf("balance %d, want 94", got)
	}
}
