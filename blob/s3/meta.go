package s3

import (
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/blob"
)

const (
	minChunkSize = 64 << 10 // the chunk size of blobs up to maxChunks chunks of it
	maxChunkSize = 64 << 20
	maxChunks    = 24 // chunk digests kept in the metadata, at most
	// MaxBlobSize is the largest blob the store takes.
	MaxBlobSize = maxChunks * maxChunkSize
	// maxTypeLen bounds the escaped content type in the metadata.
	maxTypeLen = 256
	never      = "never"
)

// User metadata keys (minio-go adds the x-amz-meta- prefix on the way out;
// responses carry them as canonical header names).
const (
	metaGen     = "cairn-gen"
	metaSize    = "cairn-size"
	metaSHA256  = "cairn-sha256"
	metaChunk   = "cairn-chunk"
	metaSums    = "cairn-sums"
	metaCreated = "cairn-created"
	metaExpires = "cairn-expires"
	metaType    = "cairn-type"
)

// record is what the store knows about one version of a blob.
type record struct {
	Gen         string
	Size        int64
	SHA256      string
	ChunkSize   int64
	Sums        []byte // sha256.Size bytes per chunk
	ContentType string
	CreatedAt   time.Time
	ExpiresAt   time.Time // zero: never

	etag string // the object's ETag when read back (not in the metadata)
}

// chunkSizeFor returns the chunk size of a blob of size bytes: the least
// power-of-two multiple of minChunkSize that makes at most maxChunks chunks.
func chunkSizeFor(size int64) int64 {
	cs := int64(minChunkSize)
	for (size+cs-1)/cs > maxChunks {
		cs *= 2
	}
	return cs
}

func (r *record) info(name string) blob.Info {
	return blob.Info{Name: name, Size: r.Size, SHA256: r.SHA256, ContentType: r.ContentType,
		CreatedAt: r.CreatedAt, ExpiresAt: r.ExpiresAt}
}

func (r *record) chunks() int64 { return (r.Size + r.ChunkSize - 1) / r.ChunkSize }

// metadata returns the user metadata of r: every key, always, since some
// servers merge a new object's metadata with the old one's.
func (r *record) metadata() map[string]string {
	expires := never
	if !r.ExpiresAt.IsZero() {
		expires = r.ExpiresAt.UTC().Format(time.RFC3339Nano)
	}
	return map[string]string{
		metaGen:     r.Gen,
		metaSize:    strconv.FormatInt(r.Size, 10),
		metaSHA256:  r.SHA256,
		metaChunk:   strconv.FormatInt(r.ChunkSize, 10),
		metaSums:    base64.StdEncoding.EncodeToString(r.Sums),
		metaCreated: r.CreatedAt.UTC().Format(time.RFC3339Nano),
		metaExpires: expires,
		metaType:    encodeType(r.ContentType),
	}
}

// encodeType makes a content type a non-empty ASCII header value.
func encodeType(ct string) string { return "t" + url.QueryEscape(ct) }

// httpContentType is the Content-Type the object is stored with, for
// clients that fetch it directly (the blob's own type is in the metadata).
func httpContentType(ct string) string {
	if ct == "" || strings.ContainsAny(ct, "\r\n") || !isASCII(ct) {
		return "application/octet-stream"
	}
	return ct
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

var (
	errMetadata = cairn.Errorf(cairn.EUPSTREAM, "stored blob metadata is missing or damaged")
	errSize     = errCorrupt("size")
)

// notOurs reports whether err says that an object exists but holds no
// valid blob: it still takes its name.
func notOurs(err error) bool { return errors.Is(err, errMetadata) || errors.Is(err, errSize) }

// decodeRecord reads a record from the headers of a HEAD or GET response.
// size is the object's length (-1: unknown, as for a range). An object
// without valid cairn metadata is EUPSTREAM.
func decodeRecord(h http.Header, size int64, etag string) (*record, error) {
	damaged := errMetadata
	get := func(k string) string { return h.Get("X-Amz-Meta-" + k) }
	r := &record{Gen: get(metaGen), SHA256: get(metaSHA256), etag: strings.Trim(etag, `"`)}
	var err error
	if r.Size, err = strconv.ParseInt(get(metaSize), 10, 64); err != nil || r.Size < 0 {
		return nil, damaged
	}
	if r.ChunkSize, err = strconv.ParseInt(get(metaChunk), 10, 64); err != nil || r.ChunkSize <= 0 ||
		r.ChunkSize > maxChunkSize {
		return nil, damaged
	}
	if r.Sums, err = base64.StdEncoding.DecodeString(get(metaSums)); err != nil ||
		int64(len(r.Sums)) != r.chunks()*sha256.Size {
		return nil, damaged
	}
	if r.CreatedAt, err = time.Parse(time.RFC3339Nano, get(metaCreated)); err != nil {
		return nil, damaged
	}
	if e := get(metaExpires); e != never {
		if r.ExpiresAt, err = time.Parse(time.RFC3339Nano, e); err != nil {
			return nil, damaged
		}
	}
	t, ok := strings.CutPrefix(get(metaType), "t")
	if !ok {
		return nil, damaged
	}
	if r.ContentType, err = url.QueryUnescape(t); err != nil {
		return nil, damaged
	}
	if !blob.IsHex(r.Gen, 16) || !blob.IsHex(r.SHA256, 64) {
		return nil, damaged
	}
	if size >= 0 && size != r.Size {
		return nil, errSize
	}
	return r, nil
}
