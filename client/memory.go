package client

import (
	"bytes"
	"context"
	"encoding/json"
	"iter"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"net/url"
	"strconv"

	"github.com/cairn-dev/cairn/wire"
)

// MemoryWrite is the body of createMemory and putMemory.
type MemoryWrite struct {
	Type               string          `json:"type,omitempty"`
	Key                string          `json:"key,omitempty"`
	Content            string          `json:"content"`
	ContentEncoding    string          `json:"contentEncoding,omitempty"`
	Importance         *float64        `json:"importance,omitempty"`
	ExpiresIn          string          `json:"expiresIn,omitempty"`
	Metadata           *MemoryMetadata `json:"metadata,omitempty"`
	BlobFilename       string          `json:"blobFilename,omitempty"`
	BlobExtension      string          `json:"blobExtension,omitempty"`
	MimeType           *string         `json:"mimeType,omitempty"`
	EncryptionProvider *string         `json:"encryptionProvider,omitempty"`
	// EncryptionMeta is a JSON object ({iv, tag}), stored and returned as
	// given.
	EncryptionMeta json.RawMessage `json:"encryptionMeta,omitempty"`
	// Embedding is the client's own vector of this version.
	Embedding *Embedding `json:"embedding,omitempty"`
}

// Embedding is a vector in a space the client names (not hash-v1 or
// server, which the service computes).
type Embedding struct {
	Space  string    `json:"space"`
	Model  string    `json:"model,omitempty"`
	Values []float64 `json:"values"`
}

// CreateMemory stores a memory (createMemory). A non-empty idempotencyKey
// makes the call safe to retry.
func (c *Client) CreateMemory(ctx context.Context, w MemoryWrite, idempotencyKey string) (*Memory, error) {
	var m Memory
	return ret(&m, c.callHeader(ctx, http.MethodPost, "/v1/memory", w, &m, "Idempotency-Key", idempotencyKey))
}

// ListMemoriesParams filters listMemories.
type ListMemoriesParams struct {
	Type, Visibility, Pinned, History, SortBy, Cursor string
	MinImportance                                     *float64
	Limit, Offset                                     int
}

// ListMemories returns one page of memories (listMemories).
func (c *Client) ListMemories(ctx context.Context, p ListMemoriesParams) (*MemoryPage, error) {
	q := query("type", p.Type, "visibility", p.Visibility, "pinned", p.Pinned, "history", p.History,
		"sortBy", p.SortBy, "cursor", p.Cursor, "limit", itoa(p.Limit), "offset", itoa(p.Offset))
	if p.MinImportance != nil {
		q.Set("minImportance", strconv.FormatFloat(*p.MinImportance, 'f', -1, 64))
	}
	var out MemoryPage
	_, err := c.do(ctx, &request{method: http.MethodGet, path: "/v1/memory", query: q}, &out)
	return ret(&out, err)
}

// AllMemories iterates over every memory matching p, following cursors.
func (c *Client) AllMemories(ctx context.Context, p ListMemoriesParams) iter.Seq2[Memory, error] {
	return paginate(func(cursor string) (*MemoryPage, error) { p.Cursor = cursor; return c.ListMemories(ctx, p) },
		func(pg *MemoryPage) ([]Memory, *string) { return pg.Memories, pg.NextCursor })
}

// SearchMemories searches by key, full text and tags (searchMemories).
func (c *Client) SearchMemories(ctx context.Context, s SearchRequest) (*SearchResults, error) {
	return callFor[SearchResults](ctx, c, http.MethodPost, "/v1/memory/search", s, authAgent)
}

// Vector is a query vector in a named embedding space.
type Vector struct {
	Space  string    `json:"space"`
	Values []float64 `json:"values"`
}

// VectorSearchRequest is the body of vectorSearchMemories.
type VectorSearchRequest struct {
	Query         string   `json:"query,omitempty"`
	Vector        *Vector  `json:"vector,omitempty"`
	Limit         int      `json:"limit,omitempty"`
	MinScore      *float64 `json:"minScore,omitempty"`
	Type          string   `json:"type,omitempty"`
	Tags          []string `json:"tags,omitempty"`
	Visibility    string   `json:"visibility,omitempty"`
	MinImportance *float64 `json:"minImportance,omitempty"`
	KeyPrefix     string   `json:"keyPrefix,omitempty"`
}

// UploadFile is a file sent as multipart form data.
type UploadFile struct {
	Name        string // the file name
	ContentType string // the part's Content-Type, optional
	Data        []byte
}

// UploadMemory stores a file as a memory (uploadMemory). fields are the
// other form fields (type, key, expiresIn, metadata...).
func (c *Client) UploadMemory(ctx context.Context, f UploadFile, fields map[string]string, idempotencyKey string) (*Memory, error) {
	r, err := multipartRequest("/v1/memory/upload", f, fields)
	if err != nil {
		return nil, err
	}
	r.setHeader("Idempotency-Key", idempotencyKey)
	var m Memory
	_, err = c.do(ctx, r, &m)
	return ret(&m, err)
}

func multipartRequest(path string, f UploadFile, fields map[string]string) (*request, error) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for k, v := range fields {
		if err := mw.WriteField(k, v); err != nil {
			return nil, err
		}
	}
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", multipart.FileContentDisposition("file", f.Name))
	if f.ContentType != "" {
		h.Set("Content-Type", f.ContentType)
	}
	pw, err := mw.CreatePart(h)
	if err != nil {
		return nil, err
	}
	if _, err := pw.Write(f.Data); err != nil {
		return nil, err
	}
	if err := mw.Close(); err != nil {
		return nil, err
	}
	return &request{method: http.MethodPost, path: path, body: buf.Bytes(), contentType: mw.FormDataContentType()}, nil
}

// BulkCreateMemories stores up to 20 memories (bulkCreateMemories).
func (c *Client) BulkCreateMemories(ctx context.Context, ws []MemoryWrite, idempotencyKey string) (*BulkResults, error) {
	var out BulkResults
	return ret(&out, c.callHeader(ctx, http.MethodPost, "/v1/memory/bulk", map[string]any{"memories": ws}, &out,
		"Idempotency-Key", idempotencyKey))
}

// BulkDeleteMemories deletes up to 50 versions (bulkDeleteMemories).
func (c *Client) BulkDeleteMemories(ctx context.Context, ids []string) (*BulkResults, error) {
	return callFor[BulkResults](ctx, c, http.MethodPost, "/v1/memory/bulk-delete", wire.BulkDeleteRequest{IDs: ids}, authAgent)
}

// ExpiringMemories lists memories expiring within (e.g. "24h")
// (expiringMemories).
func (c *Client) ExpiringMemories(ctx context.Context, within, typ string, limit int) (*Expiring, error) {
	return getFor[Expiring](ctx, c, "/v1/memory/expiring",
		query("within", within, "type", typ, "limit", itoa(limit)))
}

// MemoryTtlAlerts lists memories about to expire and renews the given ones
// (memoryTtlAlerts).
func (c *Client) MemoryTtlAlerts(ctx context.Context, a TTLAlertsRequest) (*TTLAlerts, error) {
	return callFor[TTLAlerts](ctx, c, http.MethodPost, "/v1/memory/ttl-alerts", a, authAgent)
}

// MemoryAudit returns one page of the agent's audit log (memoryAudit).
func (c *Client) MemoryAudit(ctx context.Context, action string, limit int, cursor string) (*AuditPage, error) {
	return getFor[AuditPage](ctx, c, "/v1/memory/audit",
		query("action", action, "limit", itoa(limit), "cursor", cursor))
}

// AllAudit iterates over the whole audit log (optionally one action).
func (c *Client) AllAudit(ctx context.Context, action string) iter.Seq2[AuditEntry, error] {
	return paginate(func(cursor string) (*AuditPage, error) { return c.MemoryAudit(ctx, action, 100, cursor) },
		func(pg *AuditPage) ([]AuditEntry, *string) { return pg.Entries, pg.NextCursor })
}

// GetMemory reads a version with its content (getMemory).
func (c *Client) GetMemory(ctx context.Context, id string) (*Memory, error) {
	return callFor[Memory](ctx, c, http.MethodGet, "/v1/memory/"+esc(id), nil, authAgent)
}

// GetMemoryByKey reads the latest version of the memory with the key, with
// its content (getMemoryByKey).
func (c *Client) GetMemoryByKey(ctx context.Context, key string) (*Memory, error) {
	var m Memory
	_, err := c.do(ctx, &request{method: http.MethodGet, path: "/v1/memory/by-key", query: query("key", key)}, &m)
	return ret(&m, err)
}

// PutMemory stores a new version of the memory holding id (putMemory).
// ifMatch, when not empty, is the expected latest version's ETag.
func (c *Client) PutMemory(ctx context.Context, id string, w MemoryWrite, ifMatch string) (*Memory, error) {
	var m Memory
	return ret(&m, c.callHeader(ctx, http.MethodPut, "/v1/memory/"+esc(id), w, &m, "If-Match", ifMatch))
}

// DeleteMemory deletes one version (deleteMemory).
func (c *Client) DeleteMemory(ctx context.Context, id, ifMatch string) (*DeleteResult, error) {
	return c.deleteMemory(ctx, id, ifMatch, "")
}

// DeleteWholeMemory deletes every version of the memory holding id, a
// version's id or its memoryId (deleteMemory with scope=memory).
func (c *Client) DeleteWholeMemory(ctx context.Context, id, ifMatch string) (*DeleteResult, error) {
	return c.deleteMemory(ctx, id, ifMatch, "memory")
}

func (c *Client) deleteMemory(ctx context.Context, id, ifMatch, scope string) (*DeleteResult, error) {
	r := &request{method: http.MethodDelete, path: "/v1/memory/" + esc(id), query: query("scope", scope)}
	r.setHeader("If-Match", ifMatch)
	var out DeleteResult
	_, err := c.do(ctx, r, &out)
	return ret(&out, err)
}

// MemoryHistory lists the versions of the memory holding id
// (memoryHistory).
func (c *Client) MemoryHistory(ctx context.Context, id string) (*History, error) {
	return callFor[History](ctx, c, http.MethodGet, "/v1/memory/"+esc(id)+"/history", nil, authAgent)
}

// DownloadMemory streams a version's original bytes (downloadMemory). The
// caller closes the returned body.
func (c *Client) DownloadMemory(ctx context.Context, id string) (*Stream, error) {
	return c.stream(ctx, &request{method: http.MethodGet, path: "/v1/memory/" + esc(id) + "/download"})
}

// PinMemory flips the pin (pinMemory without a body); SetMemoryPin sets it.
func (c *Client) PinMemory(ctx context.Context, id string) (*PinResult, error) {
	return callFor[PinResult](ctx, c, http.MethodPatch, "/v1/memory/"+esc(id)+"/pin", nil, authAgent)
}

// SetMemoryPin pins (true) or unpins (false) the memory (pinMemory with
// a body): unlike PinMemory, a retry leaves the same state.
func (c *Client) SetMemoryPin(ctx context.Context, id string, pinned bool) (*PinResult, error) {
	return callFor[PinResult](ctx, c, http.MethodPatch, "/v1/memory/"+esc(id)+"/pin", wire.PinRequest{Pinned: &pinned}, authAgent)
}

// SetMemoryImportance sets the importance (setMemoryImportance).
func (c *Client) SetMemoryImportance(ctx context.Context, id string, importance float64) (*ImportanceResult, error) {
	return callFor[ImportanceResult](ctx, c, http.MethodPatch, "/v1/memory/"+esc(id)+"/importance",
		wire.ImportanceRequest{Importance: &importance}, authAgent)
}

// ret returns v, or nil with the error.
// callFor is call into a new T, which it returns when the call succeeds.
func callFor[T any](ctx context.Context, c *Client, method, path string, in any, a auth) (*T, error) {
	var out T
	return ret(&out, c.call(ctx, method, path, in, &out, a))
}

// getFor is the agent's GET of path with the query into a new T, which it
// returns when the call succeeds.
func getFor[T any](ctx context.Context, c *Client, path string, q url.Values) (*T, error) {
	var out T
	_, err := c.do(ctx, &request{method: http.MethodGet, path: path, query: q}, &out)
	return ret(&out, err)
}

// pageFor is getFor of a page of a listing: limit and cursor in the query.
func pageFor[T any](ctx context.Context, c *Client, path string, limit int, cursor string) (*T, error) {
	return getFor[T](ctx, c, path, query("limit", itoa(limit), "cursor", cursor))
}

func ret[T any](v *T, err error) (*T, error) {
	if err != nil {
		return nil, err
	}
	return v, nil
}

// paginate turns a listing into an iterator: list reads the page at a
// cursor ("" for the first), items gives its items and the next cursor;
// each page's items, then the next page while the cursor is not null.
func paginate[P, T any](list func(cursor string) (*P, error), items func(*P) ([]T, *string)) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		cursor := ""
		for {
			pg, err := list(cursor)
			if err != nil {
				var zero T
				yield(zero, err)
				return
			}
			page, next := items(pg)
			for _, it := range page {
				if !yield(it, nil) {
					return
				}
			}
			if next == nil || *next == "" {
				return
			}
			cursor = *next
		}
	}
}
