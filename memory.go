package cairn

import "time"

// Memory is the head of an agent's memory: what all its versions share.
// ID is the id of the memory's first version and never changes; Key is
// unique among the agent's memories.
type Memory struct {
	ID         string    `json:"id"`
	AgentID    string    `json:"agentId"`
	Type       string    `json:"type"`
	Key        string    `json:"key"`
	Latest     int       `json:"latest"`   // version number of the latest version
	LatestID   string    `json:"latestId"` // id of the latest version
	Versions   int       `json:"versions"` // versions currently stored
	Pinned     bool      `json:"pinned"`
	Importance float64   `json:"importance"`
	Tags       []string  `json:"tags"`
	Visibility string    `json:"visibility"`
	ExpiresAt  time.Time `json:"expiresAt"` // zero: never expires
	CreatedAt  time.Time `json:"createdAt"`
	UpdatedAt  time.Time `json:"updatedAt"`
}

// Expired reports whether the memory is past its expiry at now. A pinned
// memory never expires.
func (m *Memory) Expired(now time.Time) bool {
	return !m.Pinned && !m.ExpiresAt.IsZero() && !now.Before(m.ExpiresAt)
}

// AddVersion makes v the latest version of m, after prior stored
// versions: the head a commit of v writes, which both stores and the
// memory service (to render the answer committed with it) compute here.
// Version 1 gives the memory its id, the version's.
func (m *Memory) AddVersion(v *MemoryVersion, prior int) {
	if v.Version == 1 {
		m.ID = v.ID
	}
	v.MemoryID = m.ID
	m.Latest, m.LatestID, m.Versions = v.Version, v.ID, prior+1
}

// Embedding is a client's vector of a memory version in a named space.
type Embedding struct {
	Space  string    `json:"space"`
	Model  string    `json:"model,omitempty"`
	Values []float32 `json:"values"`
}

// MemoryVersion is one version of a memory. BlobName is the blob name the
// spec shows; the content is stored under BlobKey, a name no other version
// or agent can use (versions written before BlobKey existed have it empty
// and their content under the agent's folder and BlobName). SizeBytes is the size of the content as a client reads it back
// (before compression), StoredBytes the blob's (versions written before
// StoredBytes existed have it 0 and the blob's size in SizeBytes).
type MemoryVersion struct {
	ID                 string         `json:"id"`
	MemoryID           string         `json:"memoryId"`
	Version            int            `json:"version"`
	BlobName           string         `json:"blobName"`
	BlobKey            string         `json:"blobKey,omitempty"`
	SizeBytes          int64          `json:"sizeBytes"`
	StoredBytes        int64          `json:"storedBytes,omitempty"`
	IsCompressed       bool           `json:"isCompressed"`
	ContentEncoding    string         `json:"contentEncoding,omitempty"` // "base64" for binary content
	MimeType           *string        `json:"mimeType"`
	Filename           string         `json:"filename,omitempty"`
	BlobFilename       string         `json:"blobFilename,omitempty"` // custom blob name parts (spec 2.5)
	BlobExtension      string         `json:"blobExtension,omitempty"`
	EncryptionProvider *string        `json:"encryptionProvider"`
	EncryptionMeta     map[string]any `json:"encryptionMeta"`
	// Embedding is the vector the client sent with this version, if any;
	// it is stored with the version so that the vector index is rebuilt
	// from the store.
	Embedding *Embedding `json:"embedding,omitempty"`
	// ServerEmbedding is the operator embedder's vector of the content
	// (space "server"), set after the commit by SetServerEmbedding.
	ServerEmbedding *Embedding `json:"serverEmbedding,omitempty"`
	CreatedAt       time.Time  `json:"createdAt"`
	// Inlined marks a version whose content is kept in the record itself
	// (Inline: the stored bytes, compressed when IsCompressed) instead of
	// in a blob: a short content, written with the record in one commit.
	Inlined bool   `json:"inlined,omitempty"`
	Inline  []byte `json:"inline,omitempty"`
	// SearchText is what a store that searches memories itself
	// (store.MemorySearch) indexes with a new version: its plain-text
	// content, nil when the version is not indexed (encrypted or binary).
	// It is never stored as such nor read back.
	SearchText *string `json:"-"`
}

// Memory list orders. Every order is descending.
const (
	SortCreated    = "createdAt"
	SortUpdated    = "updatedAt"
	SortImportance = "importance"
)

// MemoryFilter narrows a memory listing. Expired memories (at Now) are
// never listed.
type MemoryFilter struct {
	Type          string
	Visibility    string
	Pinned        *bool
	MinImportance float64
	// History lists every stored version, newest version first, instead of
	// the latest version of each memory; only SortCreated applies.
	History bool
	SortBy  string // "" is SortCreated
	Now     time.Time
}

// MemoryItem is one row of a listing: a memory and one of its versions
// (the latest, unless the listing asked for history).
type MemoryItem struct {
	Memory  Memory
	Version MemoryVersion
}

// MemoryPage is a page of a listing. Next is the opaque position of the
// page's last item ("" when nothing follows); Total counts every match when
// the query asked for it, else it is -1.
type MemoryPage struct {
	Items []MemoryItem
	Next  string
	Total int
}

// MemoryQuery selects a page: the items after position After (from a
// previous page's Next; "" from the start), skipping Offset of them.
type MemoryQuery struct {
	Filter MemoryFilter
	After  string
	Offset int
	Limit  int
	Count  bool
}

// MemorySearchQuery is a search of one agent's memories. Criteria combine
// with AND.
type MemorySearchQuery struct {
	// Text, when not empty, is a full-text query: words and "quoted
	// phrases" of which any may appear (memories holding more of them, and
	// more often, rank higher), -word and -"phrase" must not appear ("or"
	// between words changes nothing); the score is its rank.
	Text string
	// Key must be contained in the key, case-insensitively (as
	// strings.ToLower compares); "" matches every key. Without Text the
	// score is 3 for the key equal to it, 2 for a key starting with it, 1
	// otherwise (1 for every key when Key is "").
	Key string
	// Tags must all be on the memory.
	Tags []string
	// Now is the time at which expired memories are left out.
	Now   time.Time
	Limit int
}

// MemoryMatch is a memory found by SearchMemories.
type MemoryMatch struct {
	Key   string
	Score float64
}
