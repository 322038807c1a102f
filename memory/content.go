package memory

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"fmt"
	"io"
	"strings"

	"github.com/cairn-dev/cairn"
)

// CompressThreshold is the content size from which content is stored
// gzip-compressed, when that makes the blob smaller.
const CompressThreshold = 1024

// maxDecompressed bounds what a stored compressed blob may expand to.
const maxDecompressed = 64 << 20

// compress returns the bytes to store for content and whether they are
// compressed.
func compress(content []byte) ([]byte, bool) {
	if len(content) < CompressThreshold {
		return content, false
	}
	var buf bytes.Buffer
	w, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	w.Write(content)
	w.Close()
	if buf.Len() >= len(content) {
		return content, false
	}
	return buf.Bytes(), true
}

// decompress returns the original content of a stored blob.
func decompress(stored []byte, compressed bool) ([]byte, error) {
	if !compressed {
		return stored, nil
	}
	r, err := gzip.NewReader(bytes.NewReader(stored))
	if err != nil {
		return nil, fmt.Errorf("memory: stored content is not gzip: %w", err)
	}
	out, err := io.ReadAll(io.LimitReader(r, maxDecompressed))
	if err != nil {
		return nil, fmt.Errorf("memory: decompress: %w", err)
	}
	return out, nil
}

// BlobName is the blob of version v of a memory (spec 2.5):
// memory/{type}/{key}/v{version}, or with a custom name
// memory/{type}/{key}/{blobFilename}_v{version}{extension}.
func BlobName(typ, key string, version int, filename, ext string) string {
	if filename == "" && ext == "" {
		return fmt.Sprintf("memory/%s/%s/v%d", typ, key, version)
	}
	if filename == "" {
		filename = "blob"
	}
	return fmt.Sprintf("memory/%s/%s/%s_v%d%s", typ, key, filename, version, ext)
}

// EncodeContent renders content for JSON: text as is, binary as base64.
func EncodeContent(content []byte, encoding string) string {
	if encoding == "base64" {
		return base64.StdEncoding.EncodeToString(content)
	}
	return string(content)
}

// DownloadName is the file name a download is saved under: the uploaded
// file's name, else the last segment of the blob name.
func DownloadName(m *cairn.Memory, v *cairn.MemoryVersion) string {
	if v.Filename != "" {
		return v.Filename
	}
	name := v.BlobName[strings.LastIndexByte(v.BlobName, '/')+1:]
	if v.BlobExtension == "" && v.ContentEncoding == "" {
		name += ".txt"
	}
	return name
}
