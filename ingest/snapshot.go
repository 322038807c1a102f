package ingest

import (
	"bufio"
	"bytes"
	"cmp"
	"compress/bzip2"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"slices"
	"time"
)

// SnapshotFormat names the layout of a bundled snapshot file: gzip of one
// JSON header line followed by one JSON line per record.
const SnapshotFormat = "cairn-sdn-snapshot/1"

// SnapshotDir is where the bundled snapshot lives in this package's source
// tree; `cairn ingest --export-snapshot` writes the file there.
const SnapshotDir = "snapshot"

//go:embed snapshot/*.json.gz
var bundledFS embed.FS

// SnapshotHeader describes a snapshot file: which published source file
// its records were parsed from.
type SnapshotHeader struct {
	Format     string `json:"format"`     // SnapshotFormat
	Source     string `json:"source"`     // SourceGovSDN
	SourceFile string `json:"sourceFile"` // the published file: SDN_ADVANCED.XML
	SHA256     string `json:"sha256"`     // hex digest of that file, uncompressed, as OFAC publishes it
	Date       string `json:"date"`       // its date of issue, YYYY-MM-DD
	Records    int    `json:"records"`    // record lines that follow
}

// snapshotRecord is one record line of a snapshot file.
type snapshotRecord struct {
	EntityID   string   `json:"entityId"`
	EntityName string   `json:"entityName,omitempty"`
	Programs   []string `json:"programs,omitempty"`
	ListedAt   string   `json:"listedAt,omitempty"`
	Ticker     string   `json:"ticker"`
	Address    string   `json:"address"`
}

// Bundled is the snapshot built into the binary: the file as embedded and
// its header.
type Bundled struct {
	Name   string // file name, ofac_sdn_<date>.json.gz
	Data   []byte // the compressed file
	Header SnapshotHeader
}

// SHA256 is the hex digest of the embedded file itself.
func (b *Bundled) SHA256() string {
	s := sha256.Sum256(b.Data)
	return hex.EncodeToString(s[:])
}

// Records decodes the records of the embedded file.
func (b *Bundled) Records(emit func(Record) error) error {
	_, err := ReadSnapshot(bytes.NewReader(b.Data), emit)
	return err
}

// BundledSnapshot returns the snapshot built into the binary: the newest
// file of the snapshot directory (names carry the date).
func BundledSnapshot() (*Bundled, error) {
	names, err := bundledNames()
	if err != nil {
		return nil, err
	}
	name := names[len(names)-1]
	data, err := bundledFS.ReadFile(path.Join(SnapshotDir, name))
	if err != nil {
		return nil, err
	}
	h, err := ReadSnapshot(bytes.NewReader(data), func(Record) error { return nil })
	if err != nil {
		return nil, fmt.Errorf("bundled snapshot %s: %w", name, err)
	}
	return &Bundled{Name: name, Data: data, Header: h}, nil
}

func bundledNames() ([]string, error) {
	entries, err := bundledFS.ReadDir(SnapshotDir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if len(names) == 0 {
		return nil, errors.New("no bundled snapshot")
	}
	slices.Sort(names)
	return names, nil
}

// SnapshotFileName is the file name of a snapshot of the given date.
func SnapshotFileName(date string) string { return "ofac_sdn_" + date + ".json.gz" }

// ReadSnapshot decodes a snapshot file, calling emit once per record (with
// Source SourceGovSDN), and returns its header. A file whose record count
// differs from its header is refused, and so is any other format.
func ReadSnapshot(r io.Reader, emit func(Record) error) (SnapshotHeader, error) {
	var h SnapshotHeader
	zr, err := gzip.NewReader(r)
	if err != nil {
		return h, fmt.Errorf("snapshot: %w", err)
	}
	dec := json.NewDecoder(zr)
	if err := dec.Decode(&h); err != nil {
		return h, fmt.Errorf("snapshot header: %w", err)
	}
	if h.Format != SnapshotFormat || h.Source != SourceGovSDN {
		return h, fmt.Errorf("snapshot: format %q of source %q, want %q of %q", h.Format, h.Source, SnapshotFormat, SourceGovSDN)
	}
	if _, err := time.Parse(time.DateOnly, h.Date); err != nil {
		return h, fmt.Errorf("snapshot date %q: %w", h.Date, err)
	}
	n := 0
	for {
		var sr snapshotRecord
		if err := dec.Decode(&sr); err == io.EOF {
			break
		} else if err != nil {
			return h, fmt.Errorf("snapshot record %d: %w", n+1, err)
		}
		n++
		rec := Record{Source: SourceGovSDN, EntityID: sr.EntityID, EntityName: sr.EntityName, Programs: sr.Programs,
			Ticker: sr.Ticker, Address: sr.Address, Category: CategorySanctions}
		if sr.ListedAt != "" {
			if rec.ListedAt, err = time.Parse(time.DateOnly, sr.ListedAt); err != nil {
				return h, fmt.Errorf("snapshot record %d: %w", n, err)
			}
		}
		if err := emit(rec); err != nil {
			return h, err
		}
	}
	if n != h.Records {
		return h, fmt.Errorf("snapshot: %d records, header says %d", n, h.Records)
	}
	return h, nil
}

// ExportSnapshot parses an SDN_ADVANCED.XML (plain or bzip2-compressed)
// with ParseSDNAdvanced and writes its records as a snapshot file carrying
// the digest of the uncompressed XML and its date of issue. The output
// depends only on the input: records are sorted and the gzip header has no
// time, so that a refresh from the same file changes nothing.
func ExportSnapshot(src io.Reader, w io.Writer) (SnapshotHeader, Stats, error) {
	br := bufio.NewReader(src)
	var xmlr io.Reader = br
	if magic, _ := br.Peek(3); string(magic) == "BZh" {
		xmlr = bzip2.NewReader(br)
	}
	hash := sha256.New()
	tee := io.TeeReader(xmlr, hash)
	var recs []Record
	st, err := ParseSDNAdvanced(tee, func(r Record) error { recs = append(recs, r); return nil })
	if err != nil {
		return SnapshotHeader{}, st, err
	}
	if _, err := io.Copy(io.Discard, tee); err != nil { // the digest covers the whole file
		return SnapshotHeader{}, st, err
	}
	if st.IssuedAt.IsZero() {
		return SnapshotHeader{}, st, errors.New("the file has no date of issue")
	}
	if len(recs) == 0 {
		return SnapshotHeader{}, st, errors.New("the file lists no digital-currency address")
	}
	slices.SortFunc(recs, func(a, b Record) int {
		return cmp.Or(cmp.Compare(a.Ticker, b.Ticker), cmp.Compare(a.Address, b.Address), cmp.Compare(a.EntityID, b.EntityID))
	})
	h := SnapshotHeader{Format: SnapshotFormat, Source: SourceGovSDN, SourceFile: "SDN_ADVANCED.XML",
		SHA256: hex.EncodeToString(hash.Sum(nil)), Date: st.IssuedAt.Format(time.DateOnly), Records: len(recs)}
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return h, st, err
	}
	enc := json.NewEncoder(zw)
	if err := enc.Encode(h); err != nil {
		return h, st, err
	}
	for _, r := range recs {
		sr := snapshotRecord{EntityID: r.EntityID, EntityName: r.EntityName, Programs: r.Programs, Ticker: r.Ticker, Address: r.Address}
		if !r.ListedAt.IsZero() {
			sr.ListedAt = r.ListedAt.Format(time.DateOnly)
		}
		if err := enc.Encode(sr); err != nil {
			return h, st, err
		}
	}
	return h, st, zw.Close()
}
