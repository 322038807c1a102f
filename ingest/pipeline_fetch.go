package ingest

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/blob"
	"github.com/cairn-dev/cairn/screening"
)

// ParserVersion is the version of the parsing and normalisation that make
// a source's listings from its bytes. It is stored with each source of a
// list version; raise it with any change that makes other listings of the
// same bytes, so that the listings are parsed again after the upgrade
// rather than reused.
const ParserVersion = 1

// ingestOne fetches, snapshots, parses and normalises one source. The
// listings come back sorted by key and without duplicates. When the bytes
// fetched are those of the listings in use (reused) they are not parsed:
// the listings in use come back.
func (p *Pipeline) ingestOne(ctx context.Context, src Source) (_ *screening.Listings, _ Snapshot, reused bool, _ error) {
	client := p.Client
	if client == nil {
		client = &http.Client{Timeout: 5 * time.Minute}
	}
	var files []*fetched
	defer func() {
		for _, f := range files {
			os.Remove(f.path)
		}
	}()
	for _, loc := range strings.Split(src.Location, ",") {
		f, err := fetch(ctx, client, strings.TrimSpace(loc), src.Header, p.MaxSourceBytes)
		if err != nil {
			return nil, Snapshot{}, false, err
		}
		files = append(files, f)
	}
	snap, err := p.snapshot(ctx, files[0])
	if err != nil {
		return nil, Snapshot{}, false, err
	}
	for _, f := range files[1:] { // sdn_comments.csv: stored too, named by its digest
		if _, err := p.snapshot(ctx, f); err != nil {
			return nil, Snapshot{}, false, err
		}
	}
	if in := p.inUse(src.Name, snap, len(files)); in != nil {
		return in, snap, true, nil
	}
	var b screening.ListingsBuilder
	lr := newLister(src.Name)
	emit := func(r Record) error {
		lr.add(&b, r)
		return nil
	}
	if strings.HasPrefix(src.Name, sourceListPrefix) {
		err = ingestPlain(files[0].path, src.Name, &b)
	} else {
		err = parseSource(src.Name, files, emit, p.MaxXMLToken)
	}
	if err != nil {
		return nil, Snapshot{}, false, err
	}
	if b.Len() == 0 {
		return nil, Snapshot{}, false, fmt.Errorf("%s: no listed address found", src.Name)
	}
	listings, err := b.Sorted()
	return listings, snap, false, err
}

// inUse returns the listings in use of the source when they were parsed
// from the bytes of snap by this ParserVersion (nil otherwise): a restart,
// or a scheduled run between two publications, then skips the parse (at
// 10M addresses, seconds and a second copy of the listings in memory). A
// source of several files (the SDN CSV and its comments) names only the
// first file's digest, so it is always parsed.
func (p *Pipeline) inUse(name string, snap Snapshot, files int) *screening.Listings {
	p.mu.Lock()
	defer p.mu.Unlock()
	st := p.state[name]
	if files != 1 || st == nil || st.Listings.Len() == 0 || st.Snapshot.Bundled || snap.SHA256 == "" ||
		st.Snapshot.SHA256 != snap.SHA256 || st.ParserVersion != ParserVersion {
		return nil
	}
	return st.Listings
}

// snapshot stores the raw source in the blob store, content-addressed.
func (p *Pipeline) snapshot(ctx context.Context, f *fetched) (Snapshot, error) {
	name := "snapshots/" + f.sha256
	now := p.Clock.Now()
	if _, err := p.Blobs.Stat(ctx, name); err != nil {
		r, err := os.Open(f.path)
		if err != nil {
			return Snapshot{}, err
		}
		defer r.Close()
		if err := p.putSnapshot(ctx, name, r, "application/octet-stream"); err != nil {
			return Snapshot{}, fmt.Errorf("snapshot: %w", err)
		}
	}
	return Snapshot{BlobName: name, StorageURL: p.Blobs.URL(name), SHA256: f.sha256, FetchedAt: now}, nil
}

// putSnapshot stores a snapshot under its content-addressed name. A blob
// already there (stored meanwhile by another ingestion of the same bytes)
// holds the same content: that is success.
func (p *Pipeline) putSnapshot(ctx context.Context, name string, r io.Reader, contentType string) error {
	_, err := p.Blobs.Put(ctx, name, r, blob.PutOptions{ContentType: contentType})
	if cairn.IsCode(err, cairn.ECONFLICT) {
		return nil
	}
	return err
}
