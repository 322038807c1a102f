package ingest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/cairn-dev/cairn/screening"
)

// TestEscalatedDuringRun escalates while a run is stuck downloading: the
// call returns at once, and the escalation is in the index once the run
// ends and the background rebuild is done.
func TestEscalatedDuringRun(t *testing.T) {
	const listed, reported = "0x0000000000000000000000000000000000000001", "0x00000000000000000000000000000000000000cc"
	hit, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		once.Do(func() { close(hit) })
		<-release
		w.Write([]byte(listed + "\n"))
	}))
	defer srv.Close()
	var mu sync.Mutex
	var community []screening.Listing
	p, h := newPipeline(t, Source{Name: "list:ETH", Location: srv.URL})
	p.Community = func(context.Context) ([]screening.Listing, error) {
		mu.Lock()
		defer mu.Unlock()
		return append([]screening.Listing(nil), community...), nil
	}
	ctx := context.Background()
	runDone := make(chan error, 1)
	go func() { _, err := p.Run(ctx); runDone <- err }()
	<-hit
	mu.Lock()
	community = []screening.Listing{{Family: screening.EVM, Address: reported,
		Match: screening.Match{EntityID: "r", Source: screening.SourceCommunity, Category: "scam", Severity: "medium"}}}
	mu.Unlock()
	for range 3 { // repeated escalations coalesce into one waiting rebuild
		if err := p.Escalated(ctx); err != nil {
			t.Fatal(err)
		}
	}
	close(release)
	if err := <-runDone; err != nil {
		t.Fatal(err)
	}
	p.Wait()
	ix := h.Current()
	r, _ := ix.Screen([]screening.Query{{Address: reported, Chain: "ethereum"}, {Address: listed, Chain: "ethereum"}}, true)
	if r[0].Status != screening.StatusFlagged || r[1].Status != screening.StatusSanctioned {
		t.Fatalf("after the run and the rebuild: %s, %s", r[0].Status, r[1].Status)
	}
	if ix.Version > 3 {
		t.Fatalf("version %d: the escalations did not coalesce", ix.Version)
	}
	// With no run going, the rebuild happens within the call.
	mu.Lock()
	community = nil
	mu.Unlock()
	if err := p.Escalated(ctx); err != nil {
		t.Fatal(err)
	}
	if r, _ := h.Current().Screen([]screening.Query{{Address: reported, Chain: "ethereum"}}, true); r[0].Status != screening.StatusClear {
		t.Fatalf("synchronous rebuild: %s", r[0].Status)
	}
}
