package fs

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/blob"
)

const (
	metaFormat   = 1        // sidecar of a blob whose content is in its own file
	inlineFormat = 2        // sidecar followed by the content: "<json>\n<content>"
	chunkSize    = 64 << 10 // bytes covered by one chunk digest
	maxChunkSize = 16 << 20 // largest chunk size a sidecar may declare
)

// record is the sidecar of a blob, stored as JSON in <key>.meta.
type record struct {
	Format      int       `json:"format"`
	Name        string    `json:"name"`
	Gen         string    `json:"gen"` // content file generation
	Size        int64     `json:"size"`
	SHA256      string    `json:"sha256"` // hex digest of the whole content
	ContentType string    `json:"contentType,omitempty"`
	CreatedAt   time.Time `json:"createdAt"`
	ExpiresAt   time.Time `json:"expiresAt,omitzero"`
	ChunkSize   int64     `json:"chunkSize"`
	Chunks      string    `json:"chunks"`             // hex SHA-256 of each chunk, concatenated
	Verified    *stamp    `json:"verified,omitempty"` // content file verified whole in this state (verify.go)

	sums   []byte // Chunks decoded: sha256.Size bytes per chunk
	inline []byte // content of an inline blob (Format inlineFormat)
}

// isInline reports whether the content follows the record in the sidecar
// instead of living in a content file.
func (r *record) isInline() bool { return r.Format == inlineFormat }

// encode returns the sidecar bytes of r: its JSON, and for an inline blob a
// newline and the content (JSON encoding never writes a raw newline).
func (r *record) encode() ([]byte, error) {
	data, err := json.Marshal(r)
	if err != nil || !r.isInline() {
		return data, err
	}
	out := make([]byte, 0, len(data)+1+len(r.inline))
	return append(append(append(out, data...), '\n'), r.inline...), nil
}

func (r *record) info() blob.Info {
	return blob.Info{
		Name: r.Name, Size: r.Size, SHA256: r.SHA256, ContentType: r.ContentType,
		CreatedAt: r.CreatedAt, ExpiresAt: r.ExpiresAt,
	}
}

// decodeRecord parses and checks a sidecar. key is the file's key: the name
// inside must hash to it.
func decodeRecord(data []byte, key string) (*record, error) {
	damaged := cairn.Errorf(cairn.EUPSTREAM, "stored blob metadata is damaged")
	var r record
	head, content, inline := bytes.Cut(data, []byte{'\n'})
	if err := json.Unmarshal(head, &r); err != nil {
		return nil, damaged
	}
	if inline != (r.Format == inlineFormat) {
		return nil, damaged
	}
	if inline {
		if int64(len(content)) != r.Size {
			return nil, errCorrupt("size")
		}
		r.inline = content
	}
	sum := sha256.Sum256([]byte(r.Name))
	if (r.Format != metaFormat && r.Format != inlineFormat) || hex.EncodeToString(sum[:]) != key || !blob.IsHex(r.Gen, 16) ||
		r.Size < 0 || !blob.IsHex(r.SHA256, 64) || r.ChunkSize <= 0 || r.ChunkSize > maxChunkSize {
		return nil, damaged
	}
	n := (r.Size + r.ChunkSize - 1) / r.ChunkSize
	sums, err := hex.DecodeString(r.Chunks)
	if err != nil || int64(len(sums)) != n*sha256.Size {
		return nil, damaged
	}
	r.sums = sums
	return &r, nil
}

// readRecord reads the sidecar of name: ENOTFOUND when there is none.
func readRecord(l loc) (*record, error) {
	data, err := os.ReadFile(l.metaPath())
	if errors.Is(err, os.ErrNotExist) {
		return nil, cairn.Errorf(cairn.ENOTFOUND, "blob not found")
	} else if err != nil {
		return nil, cairn.Upstream(err, "reading blob metadata failed")
	}
	return decodeRecord(data, l.key)
}

// cachedRecord reads the sidecar of l through the read cache. The caller
// holds l's stripe lock, shared or exclusive (see cache).
func (s *Store) cachedRecord(l loc) (*record, error) {
	if r := s.cache.record(l.key); r != nil {
		return r, nil
	}
	r, err := readRecord(l)
	if err == nil {
		s.cache.putRecord(l.key, r)
	}
	return r, err
}

// writeRecord atomically replaces the sidecar of l with r (with the content
// of an inline blob): temp file, fsync, rename, fsync of the directory. The
// caller holds l's lock. committed tells whether the new sidecar replaced
// the old one, even if the final directory sync then failed.
func writeRecord(l loc, r *record) (committed bool, err error) {
	data, err := r.encode()
	if err != nil {
		return false, err
	}
	tmp := filepath.Join(l.dir, l.key+"."+newGen()+".meta.tmp")
	if err := writeFileSync(tmp, data); err != nil {
		os.Remove(tmp)
		return false, cairn.Upstream(err, "writing blob metadata failed")
	}
	if err := os.Rename(tmp, l.metaPath()); err != nil {
		os.Remove(tmp)
		return false, cairn.Upstream(err, "writing blob metadata failed")
	}
	if err := syncDir(l.dir); err != nil {
		return true, cairn.Upstream(err, "writing blob metadata failed")
	}
	return true, nil
}

func writeFileSync(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
