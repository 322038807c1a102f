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

// ingestOne fetches, snapshots, parses and normalises one source. The
// listings come back sorted by key and without duplicates.
func (p *Pipeline) ingestOne(ctx context.Context, src Source) (*screening.Listings, Snapshot, error) {
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
			return nil, Snapshot{}, err
		}
		files = append(files, f)
	}
	snap, err := p.snapshot(ctx, files[0])
	if err != nil {
		return nil, Snapshot{}, err
	}
	for _, f := range files[1:] { // sdn_comments.csv: stored too, named by its digest
		if _, err := p.snapshot(ctx, f); err != nil {
			return nil, Snapshot{}, err
		}
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
		return nil, Snapshot{}, err
	}
	if b.Len() == 0 {
		return nil, Snapshot{}, fmt.Errorf("%s: no listed address found", src.Name)
	}
	listings, err := b.Sorted()
	return listings, snap, err
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
