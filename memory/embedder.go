package memory

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// Embedder calls an OpenAI-compatible embeddings endpoint (Ollama, vLLM,
// text-embeddings-inference, OpenAI): POST {"model", "input": [texts]},
// answer {"data": [{"index", "embedding"}]}. Its vectors make the space
// "server".
type Embedder struct {
	// URL is the endpoint; a URL not ending in /embeddings gets
	// /v1/embeddings appended.
	URL   string
	Model string
	// APIKey, when set, is sent as a bearer token.
	APIKey string
	Client *http.Client
	// BatchSize is how many texts one call carries (default 32).
	BatchSize int
	// Attempts is how many times a call is tried (default 4), waiting
	// Backoff (default 250 ms), then twice as long each time.
	Attempts int
	Backoff  time.Duration
}

func (e *Embedder) endpoint() string {
	u := strings.TrimRight(e.URL, "/")
	if strings.HasSuffix(u, "/embeddings") {
		return u
	}
	return u + "/v1/embeddings"
}

func (e *Embedder) batchSize() int {
	if e.BatchSize > 0 {
		return e.BatchSize
	}
	return 32
}

// errPermanent marks an answer that a retry will not change.
var errPermanent = errors.New("embedder: permanent failure")

// Embed returns one vector per text, in order, calling the endpoint in
// batches and retrying failed calls with exponential backoff.
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, 0, len(texts))
	for len(texts) > 0 {
		n := min(len(texts), e.batchSize())
		vs, err := e.retry(ctx, texts[:n])
		if err != nil {
			return nil, err
		}
		out = append(out, vs...)
		texts = texts[n:]
	}
	return out, nil
}

func (e *Embedder) retry(ctx context.Context, texts []string) ([][]float32, error) {
	attempts, wait := e.Attempts, e.Backoff
	if attempts <= 0 {
		attempts = 4
	}
	if wait <= 0 {
		wait = 250 * time.Millisecond
	}
	var err error
	for i := 0; i < attempts; i++ {
		if i > 0 {
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(wait):
			}
			wait *= 2
		}
		var vs [][]float32
		if vs, err = e.call(ctx, texts); err == nil || errors.Is(err, errPermanent) || ctx.Err() != nil {
			return vs, err
		}
	}
	return nil, err
}

func (e *Embedder) call(ctx context.Context, texts []string) ([][]float32, error) {
	body, _ := json.Marshal(map[string]any{"model": e.Model, "input": texts})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.endpoint(), bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errPermanent, err)
	}
	req.Header.Set("Content-Type", "application/json")
	if e.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+e.APIKey)
	}
	c := e.Client
	if c == nil {
		c = &http.Client{Timeout: 30 * time.Second}
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, fmt.Errorf("embedder: %w", err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 256<<20))
	if err != nil {
		return nil, fmt.Errorf("embedder: %w", err)
	}
	if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500 {
		return nil, fmt.Errorf("embedder: status %d", resp.StatusCode)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%w: status %d", errPermanent, resp.StatusCode)
	}
	var ans struct {
		Data []struct {
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		} `json:"data"`
	}
	if err := json.Unmarshal(raw, &ans); err != nil || len(ans.Data) != len(texts) {
		return nil, fmt.Errorf("%w: malformed answer (%d vectors for %d texts)", errPermanent, len(ans.Data), len(texts))
	}
	out := make([][]float32, len(texts))
	for _, d := range ans.Data {
		if d.Index < 0 || d.Index >= len(out) || out[d.Index] != nil || len(d.Embedding) == 0 {
			return nil, fmt.Errorf("%w: malformed answer (index %d)", errPermanent, d.Index)
		}
		out[d.Index] = d.Embedding
	}
	return out, nil
}
