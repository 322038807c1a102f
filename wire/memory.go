package wire

import "encoding/json"

// MemoryMetadata is the metadata of a memory write: its tags and
// visibility, each left out when not set.
type MemoryMetadata struct {
	Tags       []string `json:"tags,omitempty"`
	Visibility string   `json:"visibility,omitempty"`
}

// Metadata is a memory's tags and visibility as the server writes them.
type Metadata struct {
	Tags       []string `json:"tags"`
	Visibility string   `json:"visibility"`
}

// Memory is one memory version (MemoryRecord). Content is set by
// getMemory and getMemoryByKey only.
type Memory struct {
	ID              string  `json:"id"`
	MemoryID        string  `json:"memoryId"`
	Type            string  `json:"type"`
	Key             string  `json:"key"`
	Content         *string `json:"content,omitempty"`
	ContentEncoding string  `json:"contentEncoding,omitempty"`
	Version         int     `json:"version"`
	IsLatest        bool    `json:"isLatest"`
	Pinned          bool    `json:"pinned"`
	Importance      float64 `json:"importance"`
	IsCompressed    bool    `json:"isCompressed"`
	SizeBytes       int64   `json:"sizeBytes"`
	// StoredBytes is the stored blob's size (compressed when
	// IsCompressed); nil on versions stored before it was recorded.
	StoredBytes        *int64   `json:"storedBytes,omitempty"`
	MimeType           *string  `json:"mimeType"`
	Filename           string   `json:"filename,omitempty"`
	BlobName           string   `json:"blobName"`
	Metadata           Metadata `json:"metadata"`
	Visibility         string   `json:"visibility"`
	EncryptionProvider *string  `json:"encryptionProvider"`
	// EncryptionMeta is the JSON object stored with the version, as given.
	EncryptionMeta json.RawMessage `json:"encryptionMeta"`
	ExpiresAt      *Time           `json:"expiresAt"`
	CreatedAt      Time            `json:"createdAt"`
	UpdatedAt      Time            `json:"updatedAt"`
}

// MemoryPage is a page of listMemories: Total only when asked for a
// count, and then no NextCursor.
type MemoryPage struct {
	HasMore    bool     `json:"hasMore"`
	Limit      int      `json:"limit"`
	Memories   []Memory `json:"memories"`
	NextCursor *string  `json:"nextCursor"`
	Total      *int     `json:"total,omitempty"`
}

// SearchRequest is the body of searchMemories. Query matches key names;
// KeyQuery is the same criterion under a name that cannot be read as a
// search of the content.
type SearchRequest struct {
	Query        string   `json:"query,omitempty"`
	KeyQuery     string   `json:"keyQuery,omitempty"`
	ContentQuery string   `json:"contentQuery,omitempty"`
	Tags         []string `json:"tags,omitempty"`
	Limit        int      `json:"limit,omitempty"`
	Mode         string   `json:"mode,omitempty"`
}

// SearchHit is one search or vector-search result: the members of a
// listed memory, with its score and what matched.
type SearchHit struct {
	CreatedAt          Time     `json:"createdAt"`
	EncryptionProvider *string  `json:"encryptionProvider"`
	ID                 string   `json:"id"`
	Importance         float64  `json:"importance"`
	IsLatest           bool     `json:"isLatest"`
	Key                string   `json:"key"`
	MatchedOn          []string `json:"matchedOn"`
	MemoryID           string   `json:"memoryId"`
	Metadata           Metadata `json:"metadata"`
	Pinned             bool     `json:"pinned"`
	Score              float64  `json:"score"`
	SizeBytes          int64    `json:"sizeBytes"`
	// StoredBytes is the stored blob's size (nil on versions stored
	// before it was recorded).
	StoredBytes *int64 `json:"storedBytes,omitempty"`
	Type        string `json:"type"`
	UpdatedAt   Time   `json:"updatedAt"`
	Version     int    `json:"version"`
	Visibility  string `json:"visibility"`
}

// SearchedFields says what each criterion of a search was matched against.
type SearchedFields struct {
	Content        string   `json:"content,omitempty"`
	ContentVectors string   `json:"contentVectors,omitempty"`
	KeyNames       string   `json:"keyNames,omitempty"`
	Tags           []string `json:"tags,omitempty"`
}

// SearchResults are the hits of searchMemories, best first.
type SearchResults struct {
	Count    int            `json:"count"`
	Hint     string         `json:"hint,omitempty"`
	Results  []SearchHit    `json:"results"`
	Searched SearchedFields `json:"searched"`
}

// VectorSearched says which space a vector search ranked in, what its
// similarity means and, for a text query, the text.
type VectorSearched struct {
	Content string `json:"content,omitempty"`
	Kind    string `json:"kind"`
	Space   string `json:"space"`
}

// VectorSearchResults are the hits of vectorSearchMemories, most similar
// first, and the space searched.
type VectorSearchResults struct {
	Count    int            `json:"count"`
	Results  []SearchHit    `json:"results"`
	Searched VectorSearched `json:"searched"`
	Space    string         `json:"space"`
}

// VectorSpace is one vector space the server computes.
type VectorSpace struct {
	Available   bool    `json:"available"`
	Description string  `json:"description"`
	Kind        string  `json:"kind"`
	Model       *string `json:"model"`
	Name        string  `json:"name"`
}

// VectorSpaces are the vector spaces the server computes
// (memoryVectorSpaces).
type VectorSpaces struct {
	ClientSpaces     string        `json:"clientSpaces"`
	DefaultTextSpace string        `json:"defaultTextSpace"`
	Spaces           []VectorSpace `json:"spaces"`
}

// ReembedRequest is the body of reembedMemories.
type ReembedRequest struct {
	Space string `json:"space"`
}

// Reembed is the result of reembedMemories.
type Reembed struct {
	Count  int    `json:"count"`
	Queued bool   `json:"queued"`
	Space  string `json:"space"`
}

// ItemError is the error of a bulk item that failed: the members of the
// problem document the item would have had alone, and message, the same
// text as detail.
type ItemError struct {
	Code    string `json:"code"`
	Detail  string `json:"detail"`
	Field   string `json:"field,omitempty"`
	Message string `json:"message"`
	Status  int    `json:"status"`
	Title   string `json:"title"`
	Type    string `json:"type"`
}

// BulkItem is the result of one item of a bulk call, in the order asked.
type BulkItem struct {
	Error  *ItemError `json:"error"`
	ID     *string    `json:"id"`
	Index  int        `json:"index"`
	Memory *Memory    `json:"memory,omitempty"`
	Status int        `json:"status"`
}

// BulkResults are the per-item results of bulkCreateMemories and
// bulkDeleteMemories.
type BulkResults struct {
	Failed    int        `json:"failed"`
	Results   []BulkItem `json:"results"`
	Succeeded int        `json:"succeeded"`
}

// BulkDeleteRequest is the body of bulkDeleteMemories.
type BulkDeleteRequest struct {
	IDs []string `json:"ids"`
}

// ExpiringMemory is a memory about to expire.
type ExpiringMemory struct {
	ExpiresAt        Time    `json:"expiresAt"`
	ExpiresInSeconds int64   `json:"expiresInSeconds"`
	ID               string  `json:"id"`
	Importance       float64 `json:"importance"`
	Key              string  `json:"key"`
	MemoryID         string  `json:"memoryId"`
	Pinned           bool    `json:"pinned"`
	Type             string  `json:"type"`
}

// Expiring is the result of expiringMemories.
type Expiring struct {
	Count    int              `json:"count"`
	Expiring []ExpiringMemory `json:"expiring"`
	Within   string           `json:"within"`
}

// TTLAlertsRequest is the body of memoryTtlAlerts.
type TTLAlertsRequest struct {
	Within         string   `json:"within,omitempty"`
	Type           string   `json:"type,omitempty"`
	RenewIDs       []string `json:"renewIds,omitempty"`
	RenewExpiresIn string   `json:"renewExpiresIn,omitempty"`
}

// Renewal is the outcome of renewing one memory of memoryTtlAlerts.
type Renewal struct {
	Error        string `json:"error,omitempty"`
	ID           string `json:"id"`
	NewExpiresAt *Time  `json:"newExpiresAt"`
	Success      bool   `json:"success"`
}

// TTLAlerts is the result of memoryTtlAlerts.
type TTLAlerts struct {
	Expiring      []ExpiringMemory `json:"expiring"`
	ExpiringCount int              `json:"expiringCount"`
	Renewed       []Renewal        `json:"renewed"`
	RenewedCount  int              `json:"renewedCount"`
	Within        string           `json:"within"`
}

// AuditEntry is one audit log entry.
type AuditEntry struct {
	Action    string `json:"action"`
	CreatedAt Time   `json:"createdAt"`
	// Detail is the entry's JSON object; its members depend on Action.
	Detail    json.RawMessage `json:"detail"`
	ID        string          `json:"id"`
	RequestID string          `json:"requestId"`
	Resource  string          `json:"resource"`
}

// AuditPage is one page of the audit log (memoryAudit).
type AuditPage struct {
	Entries []AuditEntry `json:"entries"`
	Paging
}

// DeleteResult is the result of deleteMemory: Key only when the whole
// memory was deleted.
type DeleteResult struct {
	Deleted         bool    `json:"deleted"`
	ID              string  `json:"id"`
	Key             string  `json:"key,omitempty"`
	LatestID        *string `json:"latestId"`
	LatestVersion   *int    `json:"latestVersion"`
	MemoryDeleted   bool    `json:"memoryDeleted"`
	MemoryID        string  `json:"memoryId"`
	Scope           string  `json:"scope"`
	Version         int     `json:"version"`
	VersionsDeleted int     `json:"versionsDeleted"`
}

// HistoryVersion is one version in a memory's history.
type HistoryVersion struct {
	CreatedAt Time   `json:"createdAt"`
	ID        string `json:"id"`
	IsLatest  bool   `json:"isLatest"`
	SizeBytes int64  `json:"sizeBytes"`
	// StoredBytes is the stored blob's size; nil on versions stored
	// before it was recorded.
	StoredBytes *int64 `json:"storedBytes,omitempty"`
	Version     int    `json:"version"`
}

// History lists a memory's versions (memoryHistory).
type History struct {
	Key           string           `json:"key"`
	MemoryID      string           `json:"memoryId"`
	TotalVersions int              `json:"totalVersions"`
	Type          string           `json:"type"`
	Versions      []HistoryVersion `json:"versions"`
}

// PinRequest is the optional body of pinMemory.
type PinRequest struct {
	Pinned *bool `json:"pinned"`
}

// PinResult is the result of pinMemory.
type PinResult struct {
	ExpiresAt *Time  `json:"expiresAt"`
	ID        string `json:"id"`
	Key       string `json:"key"`
	MemoryID  string `json:"memoryId"`
	Pinned    bool   `json:"pinned"`
	UpdatedAt Time   `json:"updatedAt"`
}

// ImportanceRequest is the body of setMemoryImportance.
type ImportanceRequest struct {
	Importance *float64 `json:"importance"`
}

// ImportanceResult is the result of setMemoryImportance.
type ImportanceResult struct {
	ID         string  `json:"id"`
	Importance float64 `json:"importance"`
	Key        string  `json:"key"`
	MemoryID   string  `json:"memoryId"`
	UpdatedAt  Time    `json:"updatedAt"`
}
