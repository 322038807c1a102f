package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/ingest"
)

// exportSnapshot is `cairn ingest --export-snapshot OUT --from SRC`: it
// parses an SDN_ADVANCED.XML (a file, plain or .bz2, or an http(s) URL)
// and writes the snapshot file that the binary embeds. OUT is a file, or a
// directory (such as ingest/snapshot) where the file is named by the date
// of issue and replaces the older snapshots.
func exportSnapshot(ctx context.Context, out, from string, stdout io.Writer) error {
	src, err := openFrom(ctx, from)
	if err != nil {
		return err
	}
	defer src.Close()
	dir, target := filepath.Dir(out), out
	if fi, err := os.Stat(out); err == nil && fi.IsDir() {
		dir, target = out, ""
	}
	tmp, err := os.CreateTemp(dir, ".snapshot-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	h, st, err := ingest.ExportSnapshot(src, tmp)
	if err == nil {
		err = tmp.Chmod(0o644) // a source file of the repository
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("export snapshot from %s: %w", from, err)
	}
	if target == "" {
		target = filepath.Join(dir, ingest.SnapshotFileName(h.Date))
		old, _ := filepath.Glob(filepath.Join(dir, ingest.SnapshotFileName("*")))
		for _, o := range old {
			if o != target {
				if err := os.Remove(o); err != nil {
					return err
				}
			}
		}
	}
	if err := os.Rename(tmp.Name(), target); err != nil {
		return err
	}
	fi, err := os.Stat(target)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %d records of %d entities (%s), %s of %s, sha256 %s; %d bytes\n", target, h.Records,
		st.Entities, strings.Join(st.Tickers(), " "), h.SourceFile, h.Date, h.SHA256, fi.Size())
	return nil
}

// openFrom opens a local file or downloads an http(s) URL.
func openFrom(ctx context.Context, from string) (io.ReadCloser, error) {
	if !strings.HasPrefix(from, "http://") && !strings.HasPrefix(from, "https://") {
		return os.Open(from)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, from, nil)
	if err != nil {
		return nil, err
	}
	resp, err := (&http.Client{Timeout: 10 * time.Minute}).Do(req)
	if err != nil {
		return nil, errors.New(ingest.RedactText(err.Error()))
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		return nil, fmt.Errorf("fetch %s: HTTP %d", ingest.RedactLocation(from), resp.StatusCode)
	}
	return resp.Body, nil
}
